"""A file the user edits while the model thinks between two commands is not the next command's doing."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from tests.checkpoints.rewind_helpers import rewind, turn, user_repo
from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

# Long enough for the test to edit the file while the model "thinks"; nothing asserts a duration.
THINKING_SECONDS = 6.0


def _command(cmd: str, call_id: str, *, delay: float = 0.0) -> Reply:
    arguments = json.dumps({"cmd": cmd})
    return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id=call_id),), delay_before=delay)


def test_a_hand_edit_made_between_two_commands_survives_the_rewind(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"notes.md": "draft\n", "a.py": "x = 1\n"})
    turn(vtcode, ws, "first", [], resume=False)
    script = [
        _command("echo built > out.txt", "c1"),
        _command("echo x = 2 > a.py", "c2", delay=THINKING_SECONDS),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        argv = vtcode.command("exec", *cli_args("chat"), "--approval", "full-auto", "--continue", "build it")
        child = subprocess.Popen(
            argv, cwd=ws, env=vtcode.env(cli_env("chat", server)),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        deadline = time.monotonic() + 120
        while len(server.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # the first command ran and its snapshot is taken: the model "thinks"
        (ws / "notes.md").write_text("my own edit\n")
        _, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert "notes.md" not in err, "the command is not said to have changed the user's file"
    done = rewind(vtcode, ws, "--to", "2", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert (ws / "notes.md").read_text() == "my own edit\n"
    assert (ws / "a.py").read_text() == "x = 1\n"
    assert not (ws / "out.txt").exists()


def test_what_a_command_left_running_writes_between_calls_is_still_rewound(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = user_repo(tmp_path / "ws", {"a.py": "x = 1\n"})
    turn(vtcode, ws, "first", [], resume=False)
    background = json.dumps({"cmd": "sleep 1 && echo late > late.txt && sleep 2", "yield_time_ms": 250})
    script = [
        Reply(tool_calls=(ScriptToolCall("exec_command", background, id="c1"),)),
        _command("echo x = 2 > a.py", "c2", delay=THINKING_SECONDS),
    ]
    turn(vtcode, ws, "build in the background", script)
    assert (ws / "late.txt").exists()
    done = rewind(vtcode, ws, "--to", "2", "--code", "--yes")
    assert done.code == 0, done.stderr
    assert not (ws / "late.txt").exists(), "the running command's file is the turn's doing"
    assert (ws / "a.py").read_text() == "x = 1\n"
