"""Model text through the real CLI never drives the terminal: no 8-bit (C1) controls on a terminal,
no escape sequences on a pipe either (a file that is later printed replays them)."""

from __future__ import annotations

import os
import pty
import subprocess
import time
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

HOSTILE = "start \u009b2J\u009d0;pwned\u0007 \x1b]0;title\x07\x1b[31mred\x1b[0m end"


def _read_all(fd: int, proc: subprocess.Popen[bytes]) -> bytes:
    data = b""
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break  # EIO: the child closed its end
        if not chunk:
            break
        data += chunk
    proc.wait(timeout=60)
    return data


def test_c1_controls_do_not_reach_a_terminal(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    master, slave = pty.openpty()
    with server_for("chat", [Reply(text=HOSTILE)]) as server:
        proc = subprocess.Popen(
            vtcode.command("exec", *cli_args("chat"), "hi"),
            cwd=tmp_path,
            env=vtcode.env(cli_env("chat", server)),
            stdin=subprocess.DEVNULL,
            stdout=slave,
            stderr=subprocess.DEVNULL,
        )
        os.close(slave)
        try:
            shown = _read_all(master, proc).decode("utf-8", "replace")
        finally:
            os.close(master)
    assert proc.returncode == 0
    assert "start" in shown
    assert "end" in shown
    assert not any("\x80" <= ch <= "\x9f" or ch == "\x1b" for ch in shown), repr(shown)


def test_escape_sequences_do_not_reach_a_pipe(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text=HOSTILE)]) as server:
        result = vtcode.run("exec", *cli_args("chat"), "hi", cwd=tmp_path, env=cli_env("chat", server))
    assert result.code == 0, result.stderr
    assert result.stdout == "start  red end\n"
