"""Drive the TUI headless (Textual's Pilot) against a loopback model server, as a person would."""

from __future__ import annotations

import asyncio
import itertools
import os
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.runtime.session_helpers import options
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.server import WireServer
from vtcode.tui.app import VtcodeApp

SNAPSHOTS = Path(__file__).parent / "snapshots"
# Regenerate the SVG snapshots with VTCODE_UPDATE_SNAPSHOTS=1 and review them like code.
UPDATE = os.environ.get("VTCODE_UPDATE_SNAPSHOTS") == "1"


def counter_ids() -> Callable[[], str]:
    """Deterministic uuid-shaped ids (session ids show in the status line and in snapshots)."""
    numbers: Iterator[int] = itertools.count(1)
    return lambda: f"00000000-0000-4000-8000-{next(numbers):012d}"


def tui_options(workspace: Path, home: Path, server: WireServer, **agent: Any) -> SessionOptions:
    """Session options for the TUI: approvals are answered by a person (not headless)."""
    agent.setdefault("approval", "full-auto")
    return options(workspace, home, server, headless=False, **agent)


def make_app(
    session_options: SessionOptions,
    *,
    prompt: str | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> VtcodeApp:
    """The app with deterministic session and intent ids (and, if given, a fixed clock)."""
    ids = counter_ids()

    async def opener(chosen: SessionOptions) -> Session:
        return await Session.open(chosen, new_id=ids)

    return VtcodeApp(session_options, prompt=prompt, opener=opener, clock=clock, new_id=counter_ids())


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str = "the condition") -> None:
    """Let the app run until `condition` holds (at most 30 s)."""
    try:
        async with asyncio.timeout(30):
            while not condition():
                await pilot.pause(0.02)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


@asynccontextmanager
async def running_app_on(
    session_options: SessionOptions,
    *,
    size: tuple[int, int],
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[tuple[VtcodeApp, Pilot[Any]]]:
    """Run the app on `session_options` headless at `size` and hand it over once its session is open."""
    app = make_app(session_options, clock=clock)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.session is not None, "the session")
        yield app, pilot


def running_app(
    workspace: Path,
    home: Path,
    server: WireServer,
    *,
    size: tuple[int, int],
    clock: Callable[[], float] = time.monotonic,
    **agent: Any,
) -> AbstractAsyncContextManager[tuple[VtcodeApp, Pilot[Any]]]:
    """Run the app on the TUI's options for `server` (see `running_app_on`) once its session is open."""
    return running_app_on(tui_options(workspace, home, server, **agent), size=size, clock=clock)


def screen_text(app: VtcodeApp) -> str:
    """The transcript as plain text."""
    return app.transcript.plain_text()


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type `text` into the focused widget key by key."""
    for character in text:
        await pilot.press(character if character != " " else "space")


async def check_snapshot(pilot: Pilot[Any], name: str) -> None:
    """Compare the screen's SVG with `snapshots/<name>.svg` (written when missing or when updating)."""
    app = pilot.app
    # Let layout and repaint settle (a screen pushed or a widget resized a moment ago may not be laid out
    # yet): the screen counts as settled when three looks in a row agree.
    await pilot.wait_for_scheduled_animations()
    svg = app.export_screenshot(title="vtcode")
    same = 0
    for _ in range(100):
        await pilot.pause(0.05)
        again = app.export_screenshot(title="vtcode")
        same = same + 1 if again == svg else 0
        svg = again
        if same >= 2:
            break
    path = SNAPSHOTS / f"{name}.svg"
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg)
        return
    if svg != path.read_text():
        actual = Path(tempfile.gettempdir()) / f"vtcode-snapshot-{name}.svg"
        actual.write_text(svg)
        raise AssertionError(
            f"the screen differs from {path.name} (this run's screen: {actual}); look at both and rerun "
            "with VTCODE_UPDATE_SNAPSHOTS=1 if the change is intended"
        )
