"""A loopback model that reacts to what it is asked: long scripted sessions with compactions in them.

A fixed script cannot predict when a summary request comes; this responder tells summary requests (no
tools, the transcript in the last user message) from the agent's own, reads files for each user turn and
answers. Every body is recorded, in order, with what kind of request it was.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from tests.runtime.session_helpers import Reader, options
from vtcode.config.schema import ModelSettings, Settings
from vtcode.core.compaction.summary import SECTIONS
from vtcode.core.tokens import MessageEstimator, request_tokens
from vtcode.protocol.events import TurnCompleted, TurnFailed
from vtcode.protocol.messages import Message
from vtcode.runtime.hooks import BeforeRequest, HistoryReplacement
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import HttpError, RecordedRequest, Reply, ScriptToolCall, Step
from vtcode.testing.server import WireServer
from vtcode.tokens.encoding import text_counter

GOOD_SUMMARY = "\n".join(f"## {name}\nnone" for name in SECTIONS)
OVERFLOW = HttpError(
    400, "This model's maximum context length is 8192 tokens", code="context_length_exceeded"
)


def is_summary_request(body: dict[str, Any]) -> bool:
    """A compaction's summary request: no tools, and it asks about a transcript."""
    messages = body["messages"]
    return "tools" not in body and "<transcript>" in str(messages[-1].get("content", ""))


def texts(body: dict[str, Any], role: str) -> list[str]:
    """The text of every message of `role` in a Chat request body."""
    return [str(m.get("content") or "") for m in body["messages"] if m["role"] == role]


@dataclass
class Agent:
    """Answers each user turn by reading `reads_per_turn` files, then `done`; summaries by `summarize`."""

    files: Sequence[str]
    reads_per_turn: int = 2
    summarize: Callable[[dict[str, Any]], Step] = lambda body: Reply(text=GOOD_SUMMARY)
    # A user turn whose text is a key makes this call first (instead of reading files).
    special: dict[str, ScriptToolCall] = field(default_factory=dict)
    # Main requests (0-based) answered with this step instead (an overflow, say).
    faults: dict[int, Step] = field(default_factory=dict)
    # While set and not yet released, main requests wait for it (a turn that is surely running).
    hold: threading.Event | None = None
    # Only main requests from this number on (0-based) wait for `hold`.
    hold_from: int = 0
    # (kind, body) per request, kind "main" or "summary".
    log: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=itertools.count)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: RecordedRequest) -> Step:
        body = request.json()
        with self._lock:
            if is_summary_request(body):
                self.log.append(("summary", body))
                return self.summarize(body)
            self.log.append(("main", body))
            number = sum(1 for kind, _ in self.log if kind == "main") - 1
        if self.hold is not None and number >= self.hold_from:
            self.hold.wait(60)
        with self._lock:
            if number in self.faults:
                return self.faults[number]
            messages = body["messages"]
            last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
            done = sum(1 for m in messages[last_user + 1 :] if m["role"] == "tool")
            special = self.special.get(str(messages[last_user].get("content")))
            if special is not None:
                return Reply(tool_calls=(special,), chunk_size=64) if done == 0 else Reply(text="found")
            if done >= self.reads_per_turn:
                return Reply(text="done", chunk_size=64)
            n = next(self._ids)
            path = self.files[n % len(self.files)]
            call = ScriptToolCall("read_file", json.dumps({"path": path}), id=f"call_{n}")
            return Reply(tool_calls=(call,), chunk_size=64)

    def bodies(self, kind: str) -> list[dict[str, Any]]:
        """The request bodies of one kind, in order."""
        return [body for k, body in self.log if k == kind]


def write_files(workspace: Path, count: int, lines: int) -> list[str]:
    """`count` files of `lines` distinct lines each (about 12 tokens a line), named f00.txt..."""
    workspace.mkdir(parents=True, exist_ok=True)
    names = []
    for n in range(count):
        name = f"f{n:02d}.txt"
        body = "".join(f"file {n} line {i}: alpha{n} beta{i} gamma delta {n * i}\n" for i in range(lines))
        (workspace / name).write_text(body)
        names.append(name)
    return names


def budget_options(
    workspace: Path,
    home: Path,
    server: WireServer,
    *,
    max_context_tokens: int,
    window: int | None = None,
    persist_history: bool = True,
    **harness: Any,
) -> SessionOptions:
    """Session options on the Chat wire with a session budget and `[agent.harness]` overrides.

    `window` sets `[models."gpt-4.1"] context_window`.
    """
    base = options(workspace, home, server)
    settings = base.settings
    if window is not None:
        settings = msgspec.structs.replace(settings, models={"gpt-4.1": ModelSettings(context_window=window)})
    agent = msgspec.structs.replace(
        settings.agent, harness=msgspec.structs.replace(settings.agent.harness, **harness)
    )
    dynamic = msgspec.structs.replace(settings.context.dynamic, persist_history=persist_history)
    context = msgspec.structs.replace(
        settings.context, max_context_tokens=max_context_tokens, dynamic=dynamic
    )
    changed: Settings = msgspec.structs.replace(settings, agent=agent, context=context)
    return dataclasses.replace(base, settings=changed)


@dataclass
class Boundary:
    """One before-request boundary: the request estimate before compaction and the history after it."""

    estimate: int
    before: tuple[Message, ...]
    after: tuple[Message, ...] | None = None

    @property
    def compacted(self) -> bool:
        """Whether the history changed at this boundary."""
        return self.after is not None and self.after != self.before


class BoundaryRecorder:
    """Two hooks around the compactor: the request estimate (reference 1.3) and whether it compacted."""

    def __init__(self) -> None:
        self.estimate = MessageEstimator(text_counter())
        self.boundaries: list[Boundary] = []
        self._schema = msgspec.json.Encoder()

    async def first(self, view: BeforeRequest) -> HistoryReplacement | None:
        """Runs before the compactor."""
        assert view.request is not None
        tokens = request_tokens(
            system_prompt=view.request.system.joined(),
            tool_schemas_json=[self._schema.encode(t).decode() for t in view.request.tools],
            message_estimates=(self.estimate(m) for m in view.messages),
            count=self.estimate.count,
        )
        self.boundaries.append(Boundary(estimate=tokens, before=tuple(view.messages)))
        return None

    async def last(self, view: BeforeRequest) -> HistoryReplacement | None:
        """Runs after the compactor."""
        self.boundaries[-1].after = tuple(view.messages)
        return None


async def wait_turn_end(reader: Reader, ended: int) -> None:
    """Wait until more than `ended` turns have completed or failed."""
    async with asyncio.timeout(120):
        while len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed)) <= ended:
            if reader.task.done():
                raise AssertionError(f"the stream ended: {reader.types()}")
            await asyncio.sleep(0.01)
