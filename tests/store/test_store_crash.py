"""A writer killed with SIGKILL mid-loop loses nothing it reported as checkpointed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from vtcode.protocol.messages import UserMessage
from vtcode.store import SessionStore
from vtcode.store.meta import read_info

# Appends messages of varied sizes (up to ~300 KB, so a kill can land inside a write) and reports
# each seq on stdout only after append_messages returned, i.e. after the fsync.
CHILD = """
import os, sys
from pathlib import Path
from vtcode.protocol.messages import UserMessage
from vtcode.store import SessionStore

store = SessionStore(Path(sys.argv[1]), clock=lambda: 1.0, new_id=lambda: "crash")
handle = store.create(Path(sys.argv[2]), "crash test")
i = 0
while True:
    i += 1
    text = f"message {i} " + "x" * (i % 7 * 50_000)
    handle.append_messages([UserMessage(content=text)], turn=i)
    os.write(1, f"{i}\\n".encode())
"""

KILL_AFTER = 60


def expected_message(i: int) -> UserMessage:
    return UserMessage(content=f"message {i} " + "x" * (i % 7 * 50_000))


def test_sigkill_mid_append_keeps_every_reported_checkpoint(tmp_path: Path) -> None:
    home = tmp_path / "home"
    workspace = tmp_path / "project"
    workspace.mkdir()
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "VTCODE_HOME": str(home),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(home), str(workspace)],
        stdout=subprocess.PIPE,
        env=env,
    )
    assert child.stdout is not None
    reported = 0
    for line in child.stdout:
        reported = int(line)
        if reported >= KILL_AFTER:
            break
    os.kill(child.pid, signal.SIGKILL)
    # Seqs the child reported between our last read and the kill are still in the pipe.
    for line in child.stdout:
        reported = int(line)
    child.stdout.close()
    assert child.wait(timeout=30) == -signal.SIGKILL
    assert reported >= KILL_AFTER

    store = SessionStore(home, clock=lambda: 2.0, new_id=lambda: "unused")
    with store.open("crash") as handle:
        loaded = handle.load()
        count = len(loaded.messages)
        assert count >= reported
        assert loaded.messages == [expected_message(i) for i in range(1, count + 1)]
        assert loaded.last_seq == count
        # meta.json is whole (old or new), never a torn mix.
        assert read_info(handle.dir / "meta.json").turns in {count - 1, count}

        assert handle.append_messages([UserMessage(content="after the crash")], turn=count + 1) == (count + 1)

    after = store.open("crash").load()
    assert after.notices == []
    assert after.messages[-1] == UserMessage(content="after the crash")
    assert len(after.messages) == count + 1
