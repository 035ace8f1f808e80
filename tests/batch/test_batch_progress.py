"""On a terminal, `vtcode batch run` keeps one live line: done, running, failed, tokens, cost, ETA."""

from __future__ import annotations

import os
import pty
import re
import subprocess
from pathlib import Path

from tests.batch.scripted_tasks import MODEL_ARGS, TaskScripts, batch_env, tasks_file
from tests.conftest import VtcodeRunner
from vtcode.testing.openai_chat_server import OpenAIChatServer


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_terminal_gets_one_live_progress_line(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    tasks = tasks_file(tmp_path / "tasks.jsonl", ["p0", "p1"])
    master, slave = pty.openpty()
    with OpenAIChatServer(responder=TaskScripts()) as server:
        driver = subprocess.Popen(
            vtcode.command(
                "batch", "run", str(tasks), "-o", str(tmp_path / "out"), "--workers", "1", *MODEL_ARGS
            ),
            env=vtcode.env(batch_env(server)),
            stdout=subprocess.PIPE,
            stderr=slave,
        )
        os.close(slave)
        screen = _read_all(master).decode()
        driver.wait(timeout=120)
    os.close(master)
    assert driver.returncode == 0, screen
    # Rewritten in place (carriage return, erase line), never one line per task.
    updates = screen.split("\r\x1b[2K")[1:]
    assert updates[0].startswith("[0/2] running 1, failed 0, 0 tokens, $0.0000, eta -")
    assert re.match(r"\[2/2\] running 0, failed 0, 60 tokens, \$\d+\.\d{4}, eta -", updates[-1])
    assert "p0: completed" not in screen
