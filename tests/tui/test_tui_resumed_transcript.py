"""A resumed session shows its past as it was: tool cards with outputs and diffs, steering, interruptions."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from tests.tui.tui_helpers import running_app_on, screen_text, tui_options, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.pending import PendingList

_PATCH = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-one\n+two\n*** End Patch\n"


def _call(name: str, arguments: dict[str, str], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


async def test_a_resumed_transcript_shows_tool_cards_outputs_diffs_steering_and_interruptions(
    tmp_path: Path,
) -> None:
    (tmp_path / "notes.txt").write_text("one\n")
    script = [
        # The command runs until the steering is queued: on a loaded machine typing outlasts any sleep.
        _call("exec_command", {"cmd": "until [ -e release ]; do sleep 0.05; done; echo card-output"}, "c1"),
        _call("apply_patch", {"patch": _PATCH}, "c2"),
        Reply(text="all done"),
        Reply(text="never seen", delay_before=30),
    ]
    with server_for("chat", script) as server:
        options = tui_options(tmp_path, tmp_path, server)
        async with running_app_on(options, size=(100, 40)) as (first, pilot):
            await type_text(pilot, "work")
            await pilot.press("enter")
            await until(pilot, lambda: "$ until [ -e release ]" in screen_text(first), "the command")
            await type_text(pilot, "also this")
            await pilot.press("ctrl+s")
            pending = first.query_one(PendingList)
            await until(pilot, lambda: [p.mode for p in pending.items] == ["steer"], "the steering queued")
            (tmp_path / "release").touch()
            await until(pilot, lambda: "all done" in screen_text(first), "the answer")
            await type_text(pilot, "then stop")
            await pilot.press("enter")
            await until(pilot, lambda: first.session is not None and first.session.running, "the second turn")
            await pilot.press("escape")
            await until(pilot, lambda: "interrupted" in screen_text(first), "the interruption")
        async with running_app_on(replace(options, continue_last=True), size=(100, 40)) as (again, pilot):
            await until(pilot, lambda: "resumed" in screen_text(again), "the past")
            shown = screen_text(again)
    order = [
        "› work",
        "$ until [ -e release ]",
        "card-output",
        "› (steer) also this",
        "~ notes.txt",
        "+two",
        "all done",
        "› then stop",
        "interrupted",
    ]
    positions = [shown.find(part) for part in order]
    assert -1 not in positions, [p for p, at in zip(order, positions, strict=True) if at < 0]
    assert positions == sorted(positions)


async def test_a_resumed_transcript_shows_a_shell_command_as_it_was_typed(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="seen it")]) as server:
        options = tui_options(tmp_path, tmp_path, server)
        async with running_app_on(options, size=(100, 40)) as (first, pilot):
            await type_text(pilot, "!echo shell-said-hi")
            await pilot.press("enter")
            await until(
                pilot, lambda: "shell-said-hi" in screen_text(first).split("$ echo")[-1], "its output"
            )
            await until(pilot, lambda: first.session is not None and not first.session.running, "its end")
            await type_text(pilot, "what did it say")
            await pilot.press("enter")
            await until(pilot, lambda: "seen it" in screen_text(first), "the answer")
        async with running_app_on(replace(options, continue_last=True), size=(100, 40)) as (again, pilot):
            await until(pilot, lambda: "resumed" in screen_text(again), "the past")
            shown = screen_text(again)
    order = ["› !echo shell-said-hi", "$ echo shell-said-hi", "› what did it say", "seen it"]
    positions = [shown.find(part) for part in order]
    assert -1 not in positions, [p for p, at in zip(order, positions, strict=True) if at < 0]
    assert positions == sorted(positions)
    assert "I ran this command myself" not in shown
