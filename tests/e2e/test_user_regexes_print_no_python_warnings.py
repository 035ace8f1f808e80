"""A regular expression the model or the user wrote never prints Python's own warnings.

`[[:alpha:]]` (a POSIX class, a grep habit) compiles with a FutureWarning that Python prints on
stderr with its source line, over the TUI's screen or in `vtcode exec` as if vtcode had failed.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

_NESTED_SET = "[[:alpha:]]ello"


def test_a_model_grep_with_a_posix_class_prints_no_python_warning(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    call = ScriptToolCall("grep_files", json.dumps({"pattern": _NESTED_SET}), id="g1")
    with server_for("chat", [Reply(tool_calls=(call,)), Reply(text="searched")]) as server:
        result = vtcode.run("exec", *cli_args("chat"), "search", cwd=tmp_path, env=cli_env("chat", server))
        bodies = [request.json() for request in server.requests]
    assert result.code == 0, result.stderr
    assert "Warning" not in result.stderr
    assert "re.compile" not in result.stderr
    tool_results = [m for m in bodies[1]["messages"] if m["role"] == "tool"]
    assert len(tool_results) == 1
    assert "searched" in result.stdout


def test_a_hook_matcher_with_a_nested_set_prints_no_python_warning(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    (tmp_path / ".vtcode").mkdir()
    hooks = {
        "hooks": {"PreToolUse": [{"matcher": "[[a]", "hooks": [{"type": "command", "command": "true"}]}]}
    }
    (tmp_path / ".vtcode" / "hooks.json").write_text(json.dumps(hooks))
    result = vtcode.run("hooks", "list", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert "PreToolUse [[[a]]: true" in result.stdout
    assert "Warning" not in result.stderr
