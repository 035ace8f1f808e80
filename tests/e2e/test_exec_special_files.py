"""A named pipe in the workspace, through the real CLI: every file tool answers at once, the run ends."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

CALLS = [
    ("read_file", {"path": "p"}),
    ("apply_patch", {"patch": "*** Begin Patch\n*** Update File: p\n@@\n-a\n+b\n*** End Patch"}),
    ("write_file", {"path": "p", "content": "x\n"}),
    ("grep_files", {"pattern": "x", "path": "p"}),
    ("list_files", {"path": "p"}),
]


@pytest.mark.parametrize(("tool", "arguments"), CALLS, ids=[name for name, _ in CALLS])
def test_a_named_pipe_is_not_a_regular_file(
    vtcode: VtcodeRunner, tmp_path: Path, tool: str, arguments: dict[str, object]
) -> None:
    os.mkfifo(tmp_path / "p")
    call = Reply(tool_calls=(ScriptToolCall(tool, json.dumps(arguments), id="c1"),))
    with server_for("chat", [call, Reply(text="ok")]) as server:
        # A blocked open would hold the run until this timeout, failing the test.
        result = vtcode.run(
            "exec",
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "look",
            cwd=tmp_path,
            env=cli_env("chat", server),
            timeout=30,
        )
        messages = server.requests[-1].json()["messages"]
    assert result.code == 0, result.stderr
    told = [m["content"] for m in messages if m["role"] == "tool"]
    assert len(told) == 1
    assert "p is not a regular file (a named pipe)" in told[0]
