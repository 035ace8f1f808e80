"""A run whose standard output is closed stops before doing anything, with a clear error."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import VtcodeRunner

from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def _close_stdout() -> None:
    os.close(1)


def test_exec_with_stdout_closed_is_a_usage_error_and_sends_nothing(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [Reply(text="lost")]) as server:
        done = subprocess.run(
            vtcode.command("exec", *cli_args("chat"), "hi"),
            cwd=tmp_path,
            env=vtcode.env(cli_env("chat", server)),
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
            preexec_fn=_close_stdout,
        )
        requests = len(server.requests)
    assert done.returncode == 2
    assert done.stderr == (
        "vtcode: standard output is closed; nothing was run\n"
        "hint: redirect it instead (>/dev/null to discard the answer)\n"
    )
    assert requests == 0
    assert not (vtcode.home / ".vtcode" / "sessions").exists()
