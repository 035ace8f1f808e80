"""The plan panel above the composer: the steps as the agent planned them, Ctrl+T, folded when done."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from tests.tui.tui_helpers import check_snapshot, running_app, running_app_on, tui_options, type_text, until
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp

PLAN = [
    {"step": "Read the parser", "status": "completed"},
    {"step": "Fix the off-by-one in the tokenizer", "status": "in_progress"},
    {"step": "Run the tests", "status": "pending"},
    {"step": "Update the docs", "status": "cancelled"},
]


def _plan_call(steps: list[dict[str, str]], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("update_plan", json.dumps({"plan": steps}), id=call_id),))


def _panel(app: VtcodeApp) -> str:
    return str(app.plan_panel.render())


async def test_the_plan_panel_shows_the_steps_with_the_current_one_and_ctrl_t_hides_it(
    tmp_path: Path,
) -> None:
    with server_for("chat", [_plan_call(PLAN, "p1"), Reply(text="Working on the fix.")]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(80, 24)) as (app, pilot):
            assert not app.plan_panel.display
            await type_text(pilot, "fix the parser")
            await pilot.press("enter")
            await until(pilot, lambda: app.plan_panel.display, "the plan")
            await until(pilot, lambda: not app.view.busy, "the end of the turn")
            assert _panel(app).splitlines() == [
                "Plan 2/4 done · Ctrl+T hides",
                "✓ Read the parser",
                "▶ Fix the off-by-one in the tokenizer",
                "○ Run the tests",
                "⊘ Update the docs",
            ]
            await check_snapshot(pilot, "plan_panel_80x24")
            await pilot.press("ctrl+t")
            assert not app.plan_panel.display
            # Hidden, it still follows the plan, and the same key shows it again.
            await pilot.press("ctrl+t")
            assert app.plan_panel.display
            assert app.composer.has_focus


async def test_a_finished_plan_folds_to_one_line_and_comes_back_on_resume(tmp_path: Path) -> None:
    done = [{**step, "status": "completed"} for step in PLAN[:3]]
    script = [_plan_call(PLAN, "p1"), _plan_call(done, "p2"), Reply(text="All done.")]
    with server_for("chat", script) as server:
        options = tui_options(tmp_path, tmp_path, server)
        async with running_app_on(options, size=(80, 24)) as (app, pilot):
            await type_text(pilot, "fix it")
            await pilot.press("enter")
            await until(pilot, lambda: not app.view.busy and "done" in _panel(app), "the end of the turn")
            assert _panel(app) == "✓ plan done (3 steps)"
            session = app.session
            assert session is not None
            session_id = session.id
        # A resumed session shows the plan it stored before any event arrives.
        resumed = dataclasses.replace(options, resume=session_id)
        async with running_app_on(resumed, size=(80, 24)) as (again, pilot):
            assert again.plan_panel.display
            assert _panel(again) == "✓ plan done (3 steps)"
