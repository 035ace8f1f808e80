"""A file whose name is not UTF-8, through the real CLI: listing and searching it finish the turn.

File names on Linux are bytes; the tools carry them as text with surrogate escapes (PEP 383), and at
the boundary to events, the session store and the model each undecodable byte is written `\\xNN`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

BAD_NAME = b"caf\xe9-\xff.txt"

CALLS = [
    ("list_files", {"path": "."}),
    ("grep_files", {"pattern": "needle"}),
]


@pytest.mark.parametrize(("tool", "arguments"), CALLS, ids=[name for name, _ in CALLS])
def test_a_non_utf8_file_name_does_not_fail_the_turn(
    vtcode: VtcodeRunner, tmp_path: Path, tool: str, arguments: dict[str, object]
) -> None:
    with open(os.path.join(os.fsencode(tmp_path), BAD_NAME), "wb") as handle:
        handle.write(b"a needle in a latin-1 named file\n")
    (tmp_path / "plain.txt").write_text("another needle\n")
    call = Reply(tool_calls=(ScriptToolCall(tool, json.dumps(arguments), id="c1"),))
    script = [call, Reply(text="listed")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "--json", *cli_args("chat"), "look", cwd=tmp_path, env=cli_env("chat", server), timeout=60
        )
        messages = server.requests[-1].json()["messages"]
    assert result.code == 0, result.stderr
    told = [m["content"] for m in messages if m["role"] == "tool"]
    assert len(told) == 1
    # The model sees both files; undecodable bytes are shown as bash writes them in $'...' (\\xe9).
    assert "plain.txt" in told[0]
    assert "caf\\xe9-\\xff.txt" in told[0]
    evts = events(result.stdout)
    assert [e["type"] for e in evts][-3:] == ["turn.completed", "usage", "thread.completed"]
    # The session resumes: what was stored can be read back.
    with server_for("chat", [Reply(text="again")]) as server:
        resumed = vtcode.run(
            "exec", "--json", *cli_args("chat"), "--continue", "again", cwd=tmp_path,
            env=cli_env("chat", server), timeout=60,
        )  # fmt: skip
    assert resumed.code == 0, resumed.stderr
    assert [e["type"] for e in events(resumed.stdout)][-3:] == [
        "turn.completed",
        "usage",
        "thread.completed",
    ]


def test_a_non_utf8_name_as_shown_to_the_model_opens_the_file(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with open(os.path.join(os.fsencode(tmp_path), BAD_NAME), "wb") as handle:
        handle.write(b"a needle in a latin-1 named file\n")
    call = Reply(
        tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "caf\\xe9-\\xff.txt"}), id="r1"),)
    )
    with server_for("chat", [call, Reply(text="read")]) as server:
        result = vtcode.run("exec", *cli_args("chat"), "read", cwd=tmp_path, env=cli_env("chat", server))
        messages = server.requests[-1].json()["messages"]
    assert result.code == 0, result.stderr
    (told,) = [m["content"] for m in messages if m["role"] == "tool"]
    assert "a needle in a latin-1 named file" in told
