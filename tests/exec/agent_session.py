"""One full-auto `vtcode exec` run against a scripted loopback model, for the sandbox tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.harness import events
from tests.unprivileged import Identity
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for


def command_reply(cmd: str, call_id: str) -> Reply:
    """A model reply that runs `cmd` with `exec_command` (waiting up to 20 s for it)."""
    arguments = {"cmd": cmd, "yield_time_ms": 20_000}
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps(arguments), id=call_id),))


def full_auto_session(
    as_user: Identity, ws: Path, script: list[Reply], env: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """Run `script` then a final answer as `as_user` in `ws`; the JSON events (the run must exit 0)."""
    with server_for("chat", [*script, Reply(text="done")]) as server:
        done = as_user.vtcode(
            "exec",
            "--json",
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "go",
            cwd=ws,
            env={**cli_env("chat", server), **(env or {})},
        )
    assert done.code == 0, done.stderr
    return events(done.stdout)


def command_exit_codes(evts: list[dict[str, Any]]) -> dict[str, int]:
    """Each command the run executed, with its exit code."""
    found = {}
    for event in evts:
        item = event.get("item", {})
        if event["type"] == "item.completed" and item.get("type") == "command_execution":
            found[item["command"]] = json.loads(item["result"])["exit_code"]
    return found
