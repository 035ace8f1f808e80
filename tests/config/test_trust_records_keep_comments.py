"""Recording trust (workspace MCP servers, workspace hooks) edits the user's vtcode.toml as a person would:
every comment and the layout of the rest of the file stay."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.hooks.helpers import hooks_json, script

from vtcode.config.user_file import trust_project_mcp

_HAND_WRITTEN = """\
# my vtcode settings -- keep this comment
[agent]
approval = "auto-edit"   # trailing comment

# servers I use
[mcp_servers.docs]
command = "docs-server"   # why: tests

[projects."/elsewhere"]
trust_mcp = true # another project, untouched

[sandbox]
network = false  # offline
"""


def _kept(text: str) -> None:
    for line in _HAND_WRITTEN.splitlines():
        assert line in text


def test_trusting_workspace_mcp_servers_keeps_comments_and_layout(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    path = home / "vtcode.toml"
    path.write_text(_HAND_WRITTEN)
    ws = tmp_path / "ws"
    trust_project_mcp(home, ws, {"files": "abc"})
    trust_project_mcp(home, ws, {"git": "def"})
    text = path.read_text()
    _kept(text)
    project = tomllib.loads(text)["projects"][str(ws)]
    assert project == {"trust_mcp": True, "mcp_server_hashes": {"files": "abc", "git": "def"}}
    assert tomllib.loads(text)["projects"]["/elsewhere"] == {"trust_mcp": True}


def test_vtcode_hooks_trust_keeps_comments_and_layout(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    path = vtcode.home / ".vtcode" / "vtcode.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_HAND_WRITTEN)
    ws = tmp_path / "ws"
    script(ws / ".vtcode" / "hooks" / "guard.sh", "exit 0\n")
    hooks_json(
        ws / ".vtcode" / "hooks.json",
        {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": ".vtcode/hooks/guard.sh"}]}
            ]
        },
    )
    trusted = vtcode.run("hooks", "trust", cwd=ws)
    assert trusted.code == 0, trusted.stderr
    text = path.read_text()
    assert text.startswith(_HAND_WRITTEN)
    projects = tomllib.loads(text)["projects"]
    assert list(projects[str(ws.resolve())]["hooks"].values()) == ["trusted"]
