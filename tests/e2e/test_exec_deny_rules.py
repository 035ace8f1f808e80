"""Deny rules through the real CLI: option spellings, `sh -c` strings and input typed in pieces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from vtcode.testing.script import LAST_SESSION_ID, Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

DENY = ["-c", 'approvals.deny=["rm -rf"]', "--approval", "full-auto"]


def _call(name: str, arguments: dict[str, object], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


def _victim(ws: Path) -> Path:
    victim = ws / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me\n")
    return victim


def _tool_results(body: dict[str, object]) -> list[str]:
    messages = body["messages"]
    assert isinstance(messages, list)
    return [str(m["content"]) for m in messages if m["role"] == "tool"]


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf victim",
        "rm -fr victim",
        "rm -r -f victim",
        "rm -Rf victim",
        "rm --recursive --force victim",
        "rm --recur --forc victim",
        'sh -c "rm -rf victim"',
        "bash -lc 'cd . && rm -fr victim'",
        "sudo -n rm -f -R victim",
    ],
)
def test_every_spelling_of_a_denied_command_is_refused(
    vtcode: VtcodeRunner, tmp_path: Path, command: str
) -> None:
    victim = _victim(tmp_path)
    script = [_call("exec_command", {"cmd": command}, "c1"), Reply(text="ok")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", *DENY, *cli_args("chat"), "clean up", cwd=tmp_path, env=cli_env("chat", server)
        )
        told = _tool_results(server.requests[-1].json())
    assert result.code == 0, result.stderr
    assert (victim / "precious.txt").read_text() == "keep me\n"
    assert len(told) == 1
    assert "matches the deny rule `rm -rf`" in told[0]


def test_a_recursive_delete_without_force_still_runs(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    script = [_call("exec_command", {"cmd": "rm -r victim"}, "c1"), Reply(text="ok")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", *DENY, *cli_args("chat"), "clean up", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert result.code == 0, result.stderr
    assert not victim.exists()


def test_input_typed_in_pieces_is_checked_as_the_completed_line(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    script = [
        _call("exec_command", {"cmd": "sh", "tty": True, "yield_time_ms": 300}, "c1"),
        _call("write_stdin", {"session_id": LAST_SESSION_ID, "chars": "rm -", "yield_time_ms": 100}, "c2"),
        _call(
            "write_stdin", {"session_id": LAST_SESSION_ID, "chars": "rf victim\n", "yield_time_ms": 300}, "c3"
        ),
        # Ctrl-U drops the half-typed line in the terminal, so the next command is judged on its own.
        _call("write_stdin", {"session_id": LAST_SESSION_ID, "chars": "\x15echo fine > ok.txt\n"}, "c4"),
        _call("write_stdin", {"session_id": LAST_SESSION_ID, "action": "kill"}, "c5"),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", *DENY, *cli_args("chat"), "clean up", cwd=tmp_path, env=cli_env("chat", server)
        )
        told = _tool_results(server.requests[-1].json())
    assert result.code == 0, result.stderr
    assert (victim / "precious.txt").read_text() == "keep me\n"
    assert "input `rm -rf victim` to `write_stdin` runs a command matching the deny rule `rm -rf`" in told[2]
    assert (tmp_path / "ok.txt").read_text() == "fine\n"


def test_a_command_whose_program_is_computed_is_not_run(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    script = [_call("exec_command", {"cmd": "$(echo rm) -rf victim"}, "c1"), Reply(text="ok")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", *DENY, *cli_args("chat"), "clean up", cwd=tmp_path, env=cli_env("chat", server)
        )
        told = _tool_results(server.requests[-1].json())
    assert result.code == 0, result.stderr
    assert (victim / "precious.txt").read_text() == "keep me\n"
    assert "computes the program it runs, so the [approvals] deny rules cannot be checked" in told[0]


@pytest.mark.parametrize(
    ("shell", "chars"),
    [
        # The terminal's own word erase (Ctrl-W) removes the decoy, in any shell.
        ("sh", "r\x17rm -rf victim\n"),
        # readline's Ctrl-A moves to the start of the line, where the program is typed last.
        ("bash --norc --noprofile", "-rf victim\x01rm \n"),
    ],
    ids=["ctrl-w", "ctrl-a"],
)
def test_line_editing_keys_typed_into_a_shell_cannot_hide_a_denied_command(
    vtcode: VtcodeRunner, tmp_path: Path, shell: str, chars: str
) -> None:
    victim = _victim(tmp_path)
    script = [
        _call("exec_command", {"cmd": shell, "tty": True, "yield_time_ms": 500}, "c1"),
        _call("write_stdin", {"session_id": LAST_SESSION_ID, "chars": chars, "yield_time_ms": 500}, "c2"),
        _call("write_stdin", {"session_id": LAST_SESSION_ID, "action": "kill"}, "c3"),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", *DENY, *cli_args("chat"), "clean up", cwd=tmp_path, env=cli_env("chat", server)
        )
        told = _tool_results(server.requests[-1].json())
    assert result.code == 0, result.stderr
    assert (victim / "precious.txt").read_text() == "keep me\n"
    assert "runs a command matching the deny rule `rm -rf`" in told[1]
