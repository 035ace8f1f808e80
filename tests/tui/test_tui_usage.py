"""`/usage` (also `/cost`, `/stats`) shows the session's calls by source and model at list prices, and
the status line carries the running cost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.tui_helpers import running_app, running_app_on, screen_text, tui_options, type_text, until
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
from vtcode.tui.app import VtcodeApp
from vtcode.tui.screens import TextScreen


async def _command(pilot: Pilot[Any], text: str) -> None:
    await type_text(pilot, text)
    await pilot.press("enter")


def _status(app: VtcodeApp) -> str:
    return str(app.status_line.render())


def _panel_text(app: VtcodeApp) -> str:
    screen = app.screen
    assert isinstance(screen, TextScreen), screen
    body = screen.body
    return body if isinstance(body, str) else body.plain


async def test_usage_and_its_aliases_show_the_cost_at_table_prices(tmp_path: Path) -> None:
    # gpt-4.1: $2 per million input tokens, $0.50 cached, $8 output.
    reply = Reply(text="hello there", input_tokens=100_000, cached_input_tokens=60_000, output_tokens=2_000)
    expected = (40_000 * 2 + 60_000 * 0.5 + 2_000 * 8) / 1e6
    with server_for("chat", [reply]) as server:
        async with running_app(tmp_path, tmp_path, server, size=(120, 30)) as (app, pilot):
            await _command(pilot, "hi")
            await until(pilot, lambda: "hello there" in screen_text(app), "the answer")
            await until(pilot, lambda: f"${expected:.4f}" in _status(app), "the cost in the status line")
            for command in ("/usage", "/cost", "/stats"):
                await _command(pilot, command)
                text = _panel_text(app)
                assert "by source:" in text
                line = next(row for row in text.splitlines() if row.strip().startswith("main"))
                assert "100,000 in (60,000 cache read) · 2,000 out" in line
                assert f"${expected:.4f}" in line
                assert (
                    f"total: 1 request · 100,000 in (60,000 cache read) · 2,000 out · ${expected:.4f}" in text
                )
                await pilot.press("escape")
                assert not isinstance(app.screen, TextScreen)


async def test_a_model_without_a_price_shows_cost_unknown(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hello there", input_tokens=500)]) as server:
        unpriced = tui_options(tmp_path, tmp_path, server, model="house-model-7b")
        async with running_app_on(unpriced, size=(120, 30)) as (app, pilot):
            await _command(pilot, "hi")
            await until(pilot, lambda: "hello there" in screen_text(app), "the answer")
            await until(pilot, lambda: "$?" in _status(app), "the unknown cost in the status line")
            await _command(pilot, "/usage")
            text = _panel_text(app)
            assert "cost unknown (no price for house-model-7b)" in text
            assert "500 in" in text
