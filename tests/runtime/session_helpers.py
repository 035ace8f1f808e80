"""Drive a `Session` the way a front end does: submit operations, read the event stream."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from vtcode.config.schema import AgentSettings, Settings
from vtcode.protocol.events import Event
from vtcode.protocol.messages import Message, UserMessage
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.server import WireServer
from vtcode.testing.wire import Wire, cli_env
from vtcode.tools.base import Tool

E = TypeVar("E", bound=Event)


def options(
    workspace: Path,
    home: Path,
    server: WireServer,
    *,
    approval: str = "full-auto",
    headless: bool = True,
    extra_tools: Sequence[Tool] = (),
    wire: Wire = "chat",
    **agent: Any,
) -> SessionOptions:
    """Options for a session in `workspace` talking to `server` in its wire format."""
    chosen: dict[str, Any] = {**_WIRE_AGENT[wire], **agent}
    settings = Settings(agent=msgspec.structs.replace(AgentSettings(), approval=approval, **chosen))
    env = {**cli_env(wire, server), "HOME": str(home)}
    return SessionOptions(
        workspace=workspace,
        settings=settings,
        home=home / ".vtcode",
        env=env,
        headless=headless,
        extra_tools=tuple(extra_tools),
    )


_WIRE_AGENT: dict[str, dict[str, Any]] = {
    "chat": {"provider": "openai", "model": "gpt-4.1"},
    "responses": {"provider": "openai", "model": "gpt-5", "wire_api": "responses"},
    "anthropic": {"provider": "anthropic", "model": "claude-sonnet-4-5"},
}


def conversation(messages: Sequence[Message]) -> list[Message]:
    """`messages` without the environment context item that opens every session."""
    return [m for m in messages if not (isinstance(m, UserMessage) and m.meta.kind == "context")]


class Reader:
    """Reads a session's event stream in the background and lets a test wait for an event."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.events: list[Event] = []
        self._changed = asyncio.Event()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for event in self.session.events():
            self.events.append(event)
            self._changed.set()
        self._changed.set()

    async def wait_for(
        self, kind: type[E], where: Callable[[E], bool] = lambda _: True, *, after: int = 0
    ) -> E:
        """The first event of type `kind` (from index `after`) that satisfies `where`."""
        async with asyncio.timeout(60):
            while True:
                for event in self.events[after:]:
                    if isinstance(event, kind) and where(event):
                        return event
                if self.task.done():
                    raise AssertionError(f"the stream ended without {kind.__name__}: {self.types()}")
                self._changed.clear()
                await self._changed.wait()

    def of(self, kind: type[E]) -> list[E]:
        """Every event of type `kind` so far."""
        return [e for e in self.events if isinstance(e, kind)]

    def types(self) -> list[str]:
        """The `type` tags of the events so far, with item types (`item.completed:command_execution`)."""
        shown = []
        for event in self.events:
            tag = msgspec.structs.asdict(event).get("item")
            name = type(event).__struct_config__.tag
            shown.append(f"{name}:{type(tag).__struct_config__.tag}" if tag is not None else str(name))
        return shown

    async def close(self) -> None:
        """Shut the session down and wait for the end of the stream."""
        await self.session.aclose()
        await self.task
