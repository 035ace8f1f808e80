"""`vtcode mcp add/remove` edit the user's vtcode.toml as a person would: comments and layout stay."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner

_HAND_WRITTEN = """\
# my vtcode settings -- keep this comment
[agent]
approval = "auto-edit"   # trailing comment

# servers I use
[mcp_servers.docs]
command = "docs-server"
args = ["--port", "0"]   # why: tests

[mcp_servers.docs.env]
LEVEL = "debug"

[sandbox]
network = false  # offline
"""


def _config(vtcode: VtcodeRunner) -> Path:
    path = vtcode.home / ".vtcode" / "vtcode.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_add_and_remove_keep_every_other_line(vtcode: VtcodeRunner) -> None:
    path = _config(vtcode)
    path.write_text(_HAND_WRITTEN)
    added = vtcode.run("mcp", "add", "files", "--", "npx", "-y", "server-filesystem", ".")
    assert added.code == 0, added.stderr
    text = path.read_text()
    assert text.startswith(_HAND_WRITTEN)
    assert tomllib.loads(text)["mcp_servers"]["files"] == {
        "command": "npx",
        "args": ["-y", "server-filesystem", "."],
    }
    removed = vtcode.run("mcp", "remove", "docs")
    assert removed.code == 0, removed.stderr
    text = path.read_text()
    for kept in (
        "# my vtcode settings -- keep this comment",
        "# trailing comment",
        "network = false  # offline",
    ):
        assert kept in text
    assert "docs-server" not in text
    assert "LEVEL" not in text
    assert set(tomllib.loads(text)["mcp_servers"]) == {"files"}


def test_a_server_of_the_same_name_is_replaced_only_with_force(vtcode: VtcodeRunner) -> None:
    path = _config(vtcode)
    path.write_text(_HAND_WRITTEN)
    refused = vtcode.run("mcp", "add", "docs", "--", "other-server")
    assert refused.code == 2
    assert "already" in refused.stderr
    assert "--force" in refused.stderr
    assert path.read_text() == _HAND_WRITTEN
    forced = vtcode.run("mcp", "add", "docs", "--force", "--", "other-server")
    assert forced.code == 0, forced.stderr
    text = path.read_text()
    assert tomllib.loads(text)["mcp_servers"]["docs"] == {"command": "other-server", "args": []}
    assert "# my vtcode settings -- keep this comment" in text
    assert "docs-server" not in text


@pytest.mark.parametrize("name", ["my server", "a__b", "x.y", ""])
def test_ambiguous_server_names_are_refused(vtcode: VtcodeRunner, name: str) -> None:
    result = vtcode.run("mcp", "add", name, "--", "cmd")
    assert result.code == 2
    assert "use letters, digits, - and single _ only" in result.stderr
    assert not (vtcode.home / ".vtcode" / "vtcode.toml").exists()
