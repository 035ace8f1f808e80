"""Progress a person can see: a spinner with elapsed time while the model works, a true context meter."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from tests.runtime.compaction_agent import GOOD_SUMMARY, Agent, budget_options, write_files
from tests.tui.tui_helpers import running_app, running_app_on, screen_text, tui_options, type_text, until
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp


def _status(app: VtcodeApp) -> str:
    return str(app.status_line.render())


async def test_a_spinner_with_elapsed_time_and_how_to_interrupt_shows_while_the_model_works(
    tmp_path: Path,
) -> None:
    with server_for("chat", [Reply(text="slow answer", delay_before=3.0)]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(120, 30)) as (app, pilot):
            await type_text(pilot, "think hard")
            await pilot.press("enter")
            await until(pilot, lambda: "Esc to interrupt" in _status(app), "the spinner")
            assert re.search(r"[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working \ds", _status(app))
            # The line moves on by itself while nothing else happens.
            await until(pilot, lambda: re.search(r"working [1-9]s", _status(app)) is not None, "a second")
            await until(pilot, lambda: "slow answer" in screen_text(app), "the answer")
            await until(pilot, lambda: "ready" in _status(app), "ready again")
            assert "Esc to interrupt" not in _status(app)


async def test_the_context_meter_of_a_continued_session_is_not_zero(tmp_path: Path) -> None:
    long_prompt = "please remember all of this: " + "words to keep " * 200
    with server_for("chat", [Reply(text="kept", input_tokens=3000)]) as server:
        options = tui_options(tmp_path, tmp_path, server)
        async with running_app_on(options, size=(120, 30)) as (first, pilot):
            first.composer.load_text(long_prompt)
            await pilot.press("enter")
            await until(pilot, lambda: "kept" in screen_text(first), "the answer")
        async with running_app_on(replace(options, continue_last=True), size=(120, 30)) as (again, pilot):
            session = again.session
            assert session is not None
            assert session.status().context_tokens > 200
            await until(pilot, lambda: "ctx 0/" not in _status(again), "the meter")


async def test_compact_shows_a_spinner_and_the_meter_shows_the_compacted_size(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    slow_summary = Reply(text=GOOD_SUMMARY, delay_before=2.0)
    agent = Agent(write_files(workspace, 12, 150), summarize=lambda body: slow_summary)
    with OpenAIChatServer(responder=agent) as server:
        options = replace(
            budget_options(workspace, tmp_path, server, max_context_tokens=30_000), headless=False
        )
        async with running_app_on(options, size=(140, 30)) as (app, pilot):
            session = app.session
            assert session is not None
            for n in range(3):
                await type_text(pilot, f"task {n}")
                await pilot.press("enter")
                await until(
                    pilot,
                    lambda n=n: screen_text(app).count("done") == n + 1 and not session.running,  # type: ignore[misc]
                    f"turn {n}",
                )
            before = session.status().context_tokens
            assert before > 0
            await type_text(pilot, "/compact")
            await pilot.press("enter")
            await until(pilot, lambda: "compacting" in _status(app), "the spinner")
            assert "Esc to interrupt" in _status(app)
            await until(pilot, lambda: "history compacted (manual)" in screen_text(app), "the compaction")
            # The meter shows the compacted size, not the count of the request before it.
            after = session.status().context_tokens
            assert after != before
            assert f"→ {after:,} tokens" in screen_text(app)
            await until(pilot, lambda: "ready" in _status(app), "ready again")
