"""A scripted model for one long autonomous turn: thousands of tool round trips, checked as they are sent.

The responder answers every Chat Completions request of `vtcode exec "<prompt>"`: round trip n reads a
file, runs a command or patches one of three files; after `round_trips` it (optionally) searches the
archive with `recall_history`, then answers. Summary requests (no tools, a transcript) get a summary
with a numbered marker, or an empty answer (so vtcode falls back to its deterministic summary).

Usage is the server's own count of the request (message and schema texts, with the same per-message and
per-call overheads as vtcode's estimate) times `usage_scale`: 1.8 plays a provider whose tokenizer counts
more than ours. Every request is checked against what the user and the model must see, and only figures
and violations are kept, so a 5,000-round-trip turn needs little memory:

- the prompt is verbatim in every request, and each request is within `budget` by the server's count;
- after the first compaction, the summary is in the request exactly once (the newest one), and the
  newest `verbatim_results` tool results are there, in order and verbatim.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vtcode.core.compaction.summary import SECTIONS
from vtcode.core.tokens import CachedCounter
from vtcode.testing.script import RecordedRequest, Reply, ScriptToolCall, Step

SECRET = "the secret port is 48151"
SECRET_ROUND_TRIP = 10
SUMMARY_OPENING = "Previous conversation summary:"
FALLBACK_OPENING = "(Deterministic summary written by vtcode"
PATCHED = ("src/patched_0.py", "src/patched_1.py", "src/patched_2.py")
READ_FILES = 200
_COUNT_CACHE = 50_000


def write_workspace(root: Path) -> None:
    """The files the turn works on: 200 modules of 8-47 lines, the secret note, three files to patch."""
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "notes").mkdir(exist_ok=True)
    for n in range(READ_FILES):
        lines = 8 + (n * 7) % 40
        body = "".join(
            f"def f_{n}_{i}(value):\n    return value * {n} + {i}  # step {i}\n" for i in range(lines // 2)
        )
        (root / "src" / f"mod_{n:03d}.py").write_text(body)
    (root / "notes" / "secret.txt").write_text(f"Deployment notes.\n{SECRET}.\nDo not share it.\n")
    for path in PATCHED:
        (root / path).write_text("# patched by the long turn\ncounter = 0\n")


def summary_text(marker: int) -> str:
    """A model summary in the fixed structure, marked with its number."""
    body = {name: "none" for name in SECTIONS}
    body["Goal"] = f"summary-marker-{marker:04d}: keep working through the round trips"
    return "\n".join(f"## {name}\n{text}" for name, text in body.items())


@dataclass
class RequestFigures:
    """One main request: its round trip, the server's own count and what was reported."""

    round_trip: int
    counted: int
    reported: int


@dataclass
class LongTurnModel:
    """The responder; pass it as `OpenAIChatServer(responder=...)`."""

    prompt: str
    round_trips: int
    counter: Callable[[str], int]
    budget: int
    usage_scale: float = 1.0
    verbatim_results: int = 5
    recall_at_end: bool = False
    # "" makes every summary answer empty: vtcode asks once more, then uses its local summary.
    summaries: bool = True
    # Words of padding in every summary (a summarizer that writes far more than planned for).
    summary_padding: int = 0
    mains: list[RequestFigures] = field(default_factory=list)
    summary_requests: int = 0
    summary_tokens_sent: int = 0
    violations: list[str] = field(default_factory=list)
    recall_result: str | None = None
    # The summary message of the last request that carried one.
    last_summary: str | None = None
    _n: int = 0
    _reads: int = 0
    _marker: int = 0
    _patches: list[int] = field(default_factory=lambda: [0, 0, 0])
    _calls: list[str] = field(default_factory=list)
    _first_seen: OrderedDict[str, str] = field(default_factory=OrderedDict)
    _count: CachedCounter = field(init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._count = CachedCounter(self.counter, _COUNT_CACHE)

    def __call__(self, request: RecordedRequest) -> Step:
        body = request.json()
        with self._lock:
            counted = self._count_body(body)
            if "tools" not in body and "<transcript>" in str(body["messages"][-1].get("content", "")):
                return self._summary(counted)
            return self._main(body, counted)

    def _summary(self, counted: int) -> Reply:
        self.summary_requests += 1
        self.summary_tokens_sent += counted
        if not self.summaries:
            return Reply(text="", chunk_size=4096, input_tokens=self._reported(counted))
        self._marker += 1
        text = summary_text(self._marker)
        if self.summary_padding:
            text += "\n" + " ".join(f"detail{n}" for n in range(self.summary_padding))
        return Reply(text=text, chunk_size=4096, input_tokens=self._reported(counted))

    def _main(self, body: dict[str, Any], counted: int) -> Reply:
        n = self._n
        self._n += 1
        reported = self._reported(counted)
        self.mains.append(RequestFigures(n, counted, reported))
        self._check(body, n, reported)
        if n < self.round_trips:
            call = self._call(n)
        elif n == self.round_trips and self.recall_at_end:
            call = ScriptToolCall("recall_history", json.dumps({"query": "secret port"}), id=f"rt_{n}")
        else:
            if self.recall_at_end:
                self.recall_result = self._result_of(body, f"rt_{self.round_trips}")
            return Reply(text="done", chunk_size=4096, input_tokens=reported)
        self._calls.append(call.id)
        return Reply(tool_calls=(call,), chunk_size=4096, input_tokens=reported)

    def _call(self, n: int) -> ScriptToolCall:
        call_id = f"rt_{n}"
        if n == SECRET_ROUND_TRIP:
            return ScriptToolCall("read_file", json.dumps({"path": "notes/secret.txt"}), id=call_id)
        if n % 50 == 20:
            which = (n // 50) % len(PATCHED)
            old, new = self._patches[which], self._patches[which] + 1
            self._patches[which] = new
            patch = (
                f"*** Begin Patch\n*** Update File: {PATCHED[which]}\n@@\n-counter = {old}\n"
                f"+counter = {new}\n*** End Patch\n"
            )
            return ScriptToolCall("apply_patch", json.dumps({"patch": patch}), id=call_id)
        if n % 4 == 1:
            return ScriptToolCall("exec_command", json.dumps({"cmd": f"echo round-trip-{n}"}), id=call_id)
        path = f"src/mod_{self._reads % READ_FILES:03d}.py"
        self._reads += 1
        return ScriptToolCall("read_file", json.dumps({"path": path}), id=call_id)

    @property
    def patches(self) -> tuple[int, ...]:
        """How many patches each of `PATCHED` was sent."""
        return tuple(self._patches)

    # -- checks --------------------------------------------------------------------------------

    def _check(self, body: dict[str, Any], n: int, reported: int) -> None:
        messages = body["messages"]
        contents = [str(m.get("content") or "") for m in messages]
        if reported > self.budget:
            self.violations.append(f"request {n}: {reported:,} tokens by the server's count")
        if not any(m["role"] == "user" and c == self.prompt for m, c in zip(messages, contents, strict=True)):
            self.violations.append(f"request {n}: the prompt is not verbatim")
        tools = [m for m in messages if m["role"] == "tool"]
        for message in tools:
            self._first_seen.setdefault(message["tool_call_id"], str(message["content"]))
        while len(self._first_seen) > 4 * self.verbatim_results + 64:
            self._first_seen.popitem(last=False)
        joined = "\n".join(contents)
        if SUMMARY_OPENING not in joined:
            return  # before the first compaction
        self.last_summary = next(c for c in contents if c.startswith(SUMMARY_OPENING))
        once = joined.count(SUMMARY_OPENING) == 1
        if self.summaries:
            once = once and joined.count("summary-marker-") == 1
        else:
            once = once and joined.count(FALLBACK_OPENING) == 1
        if not once:
            self.violations.append(f"request {n}: the summary is not there exactly once")
        elif self.summaries and f"summary-marker-{self._marker:04d}" not in joined:
            self.violations.append(f"request {n}: not the newest summary")
        expected = self._calls[-self.verbatim_results :]
        newest = tools[-len(expected) :] if expected else []
        if [m["tool_call_id"] for m in newest] != expected:
            self.violations.append(f"request {n}: the newest {len(expected)} tool results are not all there")
            return
        for message in newest:
            if str(message["content"]) != self._first_seen.get(message["tool_call_id"]):
                self.violations.append(f"request {n}: result {message['tool_call_id']} is not verbatim")

    def _result_of(self, body: dict[str, Any], call_id: str) -> str | None:
        for message in body["messages"]:
            if message.get("tool_call_id") == call_id:
                return str(message["content"])
        return None

    # -- the server's own count ------------------------------------------------------------------

    def _reported(self, counted: int) -> int:
        return math.ceil(counted * self.usage_scale)

    def _count_body(self, body: dict[str, Any]) -> int:
        total = self._count(json.dumps(body.get("tools", []), separators=(",", ":")))
        for message in body["messages"]:
            total += 4 + self._count(str(message.get("content") or ""))
            total += self._count(str(message.get("tool_call_id") or ""))
            for call in message.get("tool_calls") or ():
                function = call["function"]
                total += 20 + self._count(function["name"]) + self._count(function["arguments"])
        return total
