"""`!cmd` through the real `vtcode exec`: the user's command runs (no approval, no tool hooks, outside
the sandbox unless configured), makes no model request, and the model reads it with the next prompt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.checkpoints.rewind_helpers import command_call, rewind, user_repo
from tests.conftest import Completed, VtcodeRunner
from tests.hooks.helpers import script, user_config
from vtcode.exec.landlock import abi_version
from vtcode.testing.script import Reply, Step
from vtcode.testing.wire import cli_args, cli_env, server_for

needs_landlock = pytest.mark.skipif(abi_version() < 1, reason="this kernel has no Landlock")


def _exec(
    vtcode: VtcodeRunner, ws: Path, prompt: str, steps: list[Step], *extra: str
) -> tuple[Completed, list[dict[str, Any]]]:
    """`vtcode exec --json PROMPT` in `ws`; what it printed and the request bodies the server received."""
    with server_for("chat", steps) as server:
        done = vtcode.run(
            "exec", "--json", *cli_args("chat"), *extra, prompt,
            cwd=ws, env=cli_env("chat", server), timeout=120,
        )  # fmt: skip
        bodies = [request.json() for request in server.requests]
    return done, bodies


def _events(done: Completed, kind: str) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return [e for e in lines if e["type"] == kind]


def _commands(done: Completed) -> list[dict[str, Any]]:
    """The command items `vtcode exec --json` reported completed."""
    items = [e["item"] for e in _events(done, "item.completed")]
    return [i for i in items if i["type"] == "command_execution"]


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


def test_a_shell_command_makes_no_request_and_the_next_prompt_carries_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = _workspace(tmp_path)
    done, bodies = _exec(vtcode, ws, "!echo hi-from-shell", [Reply(text="unused")])
    assert done.code == 0, done.stderr
    assert bodies == [], "the `!` input itself asks the model nothing"
    [item] = _commands(done)
    assert item["command"] == "echo hi-from-shell"
    assert "hi-from-shell" in item["aggregated_output"]
    assert item["exit_code"] == 0
    assert [e["type"] for e in _events(done, "turn.completed")] == ["turn.completed"]
    later, bodies = _exec(vtcode, ws, "what did it print?", [Reply(text="it printed hi")], "--continue")
    assert later.code == 0, later.stderr
    assert len(bodies) == 1
    users = [str(m["content"]) for m in bodies[0]["messages"] if m["role"] == "user"]
    shell = [text for text in users if "$ echo hi-from-shell" in text]
    assert shell == ["I ran this command myself:\n$ echo hi-from-shell\nhi-from-shell\n(exit code 0)"]
    assert users[-1] == "what did it print?"


def test_plain_exec_prints_the_command_output_and_exits_0(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    with server_for("chat", [Reply(text="unused")]) as server:
        done = vtcode.run(
            "exec", *cli_args("chat"), "!echo hi-$((40 + 2))", cwd=ws, env=cli_env("chat", server)
        )
        assert server.requests == []
    assert done.code == 0, done.stderr
    assert done.stdout == "hi-42\n", "the output of the command is the result"


def test_exec_waits_for_a_shell_command_that_outlives_the_yield(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    with server_for("chat", [Reply(text="seen")]) as server:
        # exec_command returns after 10 s; nobody would be left to follow the command in `vtcode exec`.
        done = vtcode.run(
            "exec", *cli_args("chat"), "!echo early; sleep 11; echo late",
            cwd=ws, env=cli_env("chat", server), timeout=120,
        )  # fmt: skip
        assert server.requests == []
    assert done.code == 0, done.stderr
    assert done.stdout == "early\nlate\n"
    later, bodies = _exec(vtcode, ws, "and?", [Reply(text="seen")], "--continue")
    assert later.code == 0, later.stderr
    users = [str(m["content"]) for m in bodies[0]["messages"] if m["role"] == "user"]
    assert (
        "I ran this command myself:\n$ echo early; sleep 11; echo late\nearly\nlate\n(exit code 0)" in users
    )


@pytest.mark.parametrize("approval", ["ask", "read-only"])
def test_a_mode_that_would_ask_does_not_ask_for_a_shell_command(
    vtcode: VtcodeRunner, tmp_path: Path, approval: str
) -> None:
    ws = _workspace(tmp_path)
    done, bodies = _exec(vtcode, ws, "!echo made > made.txt", [], "--approval", approval)
    assert done.code == 0, done.stderr
    assert (ws / "made.txt").read_text() == "made\n"
    assert _events(done, "approval.requested") == []
    assert bodies == []


def test_a_pre_tool_use_hook_for_commands_does_not_fire_for_a_shell_command(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = _workspace(tmp_path)
    fired = tmp_path / "fired.txt"
    guard = script(tmp_path / "hooks" / "guard.sh", f"cat >> {fired}\necho no >&2\nexit 2\n")
    user_config(
        isolated_home,
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{guard}"\n'
        f'[[hooks.PostToolUse]]\nmatcher = "Bash"\n[[hooks.PostToolUse.hooks]]\ncommand = "{guard}"\n',
    )
    done, _ = _exec(vtcode, ws, "!touch ran.txt", [], "--approval", "full-auto")
    assert done.code == 0, done.stderr
    assert (ws / "ran.txt").exists()
    assert not fired.exists()
    assert _events(done, "hook.started") == []
    # The same hook does block the agent's own command: it is configured and would fire.
    agent, _ = _exec(
        vtcode, ws, "go", [command_call("touch agent.txt", "c1"), Reply(text="ok")], "--approval", "full-auto"
    )
    assert agent.code == 0, agent.stderr
    assert not (ws / "agent.txt").exists()
    assert fired.exists()


@needs_landlock
def test_a_shell_command_writes_outside_the_workspace_where_the_agent_is_refused(
    vtcode: VtcodeRunner, tmp_path: Path, outside: Path
) -> None:
    ws = _workspace(tmp_path)
    steps: list[Step] = [command_call(f"echo agent > {outside}/agent.txt", "c1"), Reply(text="ok")]
    agent, _ = _exec(vtcode, ws, "go", steps, "--approval", "full-auto")
    assert agent.code == 0, agent.stderr
    assert not (outside / "agent.txt").exists(), "the agent's command is confined"
    done, _ = _exec(vtcode, ws, f"!echo mine > {outside}/mine.txt", [], "--continue")
    assert done.code == 0, done.stderr
    assert (outside / "mine.txt").read_text() == "mine\n"


@needs_landlock
def test_confine_user_commands_puts_shell_commands_in_the_sandbox(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path, outside: Path
) -> None:
    ws = _workspace(tmp_path)
    user_config(isolated_home, "[sandbox]\nconfine_user_commands = true\n")
    done, _ = _exec(vtcode, ws, f"!echo mine > {outside}/mine.txt", [])
    assert done.code == 0, done.stderr
    assert not (outside / "mine.txt").exists()
    [item] = _commands(done)
    assert item["exit_code"] != 0


def test_rewind_restores_a_file_a_shell_command_removed(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"f": "keep me\n"})
    done, _ = _exec(vtcode, ws, "!rm f", [])
    assert done.code == 0, done.stderr
    assert not (ws / "f").exists()
    undone = rewind(vtcode, ws, "--to", "1", "--code", "--yes")
    assert undone.code == 0, undone.stderr
    assert (ws / "f").read_text() == "keep me\n"


@pytest.mark.parametrize("confined", [False, True])
def test_a_shell_command_reads_end_of_input_so_nothing_is_typed_into_it(
    vtcode: VtcodeRunner, tmp_path: Path, confined: bool
) -> None:
    # Left open, `!sh` would wait for input nobody types, which the model could send with write_stdin
    # (unconfined, outside the sandbox), and a headless run would wait for it for ever.
    ws = _workspace(tmp_path)
    extra = ["-c", "sandbox.confine_user_commands=true"] if confined else []
    command = """!sh -c 'read line; echo "got:[$line] $?"'"""
    done, bodies = _exec(vtcode, ws, command, [Reply(text="unused")], *extra)
    assert done.code == 0, done.stderr
    assert bodies == []
    [item] = _commands(done)
    assert "got:[] 1" in item["aggregated_output"], item
    assert item["exit_code"] == 0
