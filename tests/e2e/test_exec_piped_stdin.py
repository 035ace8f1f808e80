"""Piped stdin: the prompt when none is given, else a bounded `<stdin>` block; an idle pipe never hangs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

_DIFF = "diff --git a/calc.py b/calc.py\n-    return a - b\n+    return a + b\n"


def _user_text(body: bytes) -> str:
    """Everything the first request says, as text (the prompt is in there, JSON-escaped once)."""
    return json.dumps(json.loads(body))


def test_piped_stdin_is_the_prompt_when_none_is_given(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="done")]) as server:
        result = vtcode.run(
            "exec", *cli_args("chat"), cwd=tmp_path, env=cli_env("chat", server), input="rename foo to bar\n"
        )
        bodies = [r.body for r in server.requests]
    assert result.code == 0, result.stderr
    assert "rename foo to bar" in _user_text(bodies[0])
    assert "<stdin>" not in _user_text(bodies[0])


def test_piped_stdin_is_context_for_a_given_prompt(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="fix: add adds")]) as server:
        result = vtcode.run(
            "exec",
            *cli_args("chat"),
            "write a commit message",
            cwd=tmp_path,
            env=cli_env("chat", server),
            input=_DIFF,
        )
        bodies = [r.body for r in server.requests]
    assert result.code == 0, result.stderr
    assert result.stdout == "fix: add adds\n"
    sent = _user_text(bodies[0])
    assert json.dumps(f"write a commit message\n\n<stdin>\n{_DIFF.rstrip()}\n</stdin>")[1:-1] in sent


def test_large_stdin_is_cut_and_the_whole_of_it_kept_in_a_file(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    big = "".join(f"line {n:06d} of the build log\n" for n in range(10_000)) + "FINAL-ERROR-MARKER\n"
    with server_for("chat", [Reply(text="the build failed")]) as server:
        result = vtcode.run(
            "exec", *cli_args("chat"), "why did it fail", cwd=tmp_path, env=cli_env("chat", server), input=big
        )
        bodies = [r.body for r in server.requests]
    assert result.code == 0, result.stderr
    sent = _user_text(bodies[0])
    assert "line 000000 of the build log" in sent
    assert "FINAL-ERROR-MARKER" not in sent
    assert len(bodies[0]) < len(big)
    (spool,) = (tmp_path / ".vtcode" / "context" / "stdin").iterdir()
    assert spool.read_text() == big
    assert f"{len(big):,} bytes in all; the whole input is in .vtcode/context/stdin/{spool.name}" in sent


def test_an_open_pipe_with_nothing_on_it_does_not_block_the_run(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with server_for("chat", [Reply(text="no stdin here")]) as server, out.open("w") as stdout:
        # The writer end stays open and silent for the whole run, as a CI runner's inherited pipe can.
        proc = subprocess.Popen(
            vtcode.command("exec", *cli_args("chat"), "say hi"),
            cwd=tmp_path,
            env=vtcode.env(cli_env("chat", server)),
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.PIPE,
        )
        try:
            code = proc.wait(timeout=60)
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.kill()
        bodies = [r.body for r in server.requests]
    assert code == 0
    assert out.read_text() == "no stdin here\n"
    assert "<stdin>" not in _user_text(bodies[0])
