"""vtcode CPU per model round trip of a real session, with a history of 50, 500 and 5,000 messages.

What is measured is the request path a front end gets from `Session` (open / submit / events), nothing
built by hand: a stored session of N messages, written with the store API, is resumed with
`Session.open`; one user input then runs a turn in which the model (the loopback Chat Completions server,
in a child process, so its CPU is not counted) answers with a cheap tool call (`read_file` of a small
file) several times, then "ok". One round trip is the interval between two consecutive after-tool-batch
boundaries of that turn, timed with `time.process_time()` (this process, all threads) from a hook
registered through the public `Session.hooks`; it covers, in order:

  steering check (the session's own after-tool-batch hook) -> prompt re-check (instruction files stat'ed)
  -> request built from the whole history -> encoded, POSTed, streamed back, decoded -> item and delta
  events (to the reader task, and `events.jsonl`) -> checkpoint 1: the assistant message (fsync) ->
  tool dispatch (approval policy, `read_file`, touched paths) -> checkpoint 2: the tool result (fsync).

The turn's own user message is checkpointed once, before the first request, outside the intervals. Each
round trip adds two messages, so a session is measured for only a few round trips and the stored history
is sized so that the history of the measured requests averages N messages (the table shows the mean).
Also counted, as in real use: the first measured round trip of a turn runs instruction discovery once
(the tool touched a path new to the session; printed as "instruction rediscoveries", the median hides
it), and every request opens a new loopback connection (the test server closes streamed responses; a
real provider keeps it alive, so this overstates a little).

The two checkpoints are shown separately, measured in the same intervals rather than by a second run:
`SessionHandle.append_messages` (encode, write, fsync of `history.jsonl`, atomic `meta.json` rewrite) and,
inside it, every `os.fsync` call (three per checkpoint: `history.jsonl`, the `meta.json` temp file, its
directory) are wrapped with counters of process CPU and wall time. An fsync mostly waits for the device:
it costs little CPU but much wall time, so both are printed; the store's file system is printed too
(`--dir /dev/shm` puts the store on tmpfs, where an fsync is nearly free: comparing the two runs also
shows the journal work of create and rename in a checkpoint, which is not inside an fsync call).

Baseline, measured in the same run: `msgspec.json.encode` of the same Chat Completions body (the session's
next request after the turn, N + 7 messages, as an already built dict): the unavoidable cost of putting
those bytes on the wire from Python, with the fastest encoder there is, so it is a floor. Also printed:
the growth of the per-round-trip CPU between sizes (10x more messages; <= 10x is linear or better).

Target: <= 10 ms CPU per round trip at 500 messages; linear or better growth.
Run: .venv/bin/python bench/harness_bench.py [--quick] [--runs N] [--dir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from loopback_process import ServerProcess

from vtcode.config.schema import AgentSettings, HarnessSettings, ModelSettings, Settings
from vtcode.protocol.events import TurnCompleted, TurnFailed
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    Reasoning,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.protocol.ops import UserInput
from vtcode.providers.openai_chat_request import build_chat_request
from vtcode.runtime.hooks import AfterToolBatch
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.store.session import SessionHandle, SessionStore

SIZES = (50, 500, 5_000)
TARGET_MS_AT_500 = 10.0
# Tool round trips per measured turn: the first one (new HTTP connection) is outside the intervals, so a
# turn gives TOOL_REPLIES - 1 measured round trips; few, because each one adds two messages.
TOOL_REPLIES = 6
MEASURED_PER_TURN = TOOL_REPLIES - 1
# The history when the measured requests are sent: stored + 1 (user) + 2, 4, ... 2 * MEASURED_PER_TURN.
MEAN_GROWTH = 1 + (MEASURED_PER_TURN + 1)

# Runs in a child process: an OpenAIChatServer with, per session, TOOL_REPLIES replies that call
# read_file and a final "ok"; prints its base URL and serves until stdin closes. Recorded requests
# (megabytes each at 5,000 messages) are dropped as they come.
_SERVER = r"""
import json, sys, threading, time
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, ScriptToolCall
sessions, tool_replies = int(sys.argv[1]), int(sys.argv[2])
script = []
for s in range(sessions):
    for k in range(tool_replies):
        # A different line each time: the turn loop stops a model that repeats the same call.
        args = json.dumps({"path": "src/pkg/small.py", "offset": k + 1, "limit": 1})
        call = ScriptToolCall("read_file", args, id=f"call_bench_{s}_{k}")
        script.append(Reply(text="Reading it.", tool_calls=(call,), chunk_size=16))
    script.append(Reply(text="ok"))
server = OpenAIChatServer(script).start()
print(server.base_url, flush=True)
def trim():
    while True:
        time.sleep(0.2)
        server.requests.clear()
threading.Thread(target=trim, daemon=True).start()
sys.stdin.read()
server.stop()
"""

_CODE = (
    "def handle_{n}(request: Request) -> Response:\n"
    '    """Serve one "{n}" request; see docs/api.md \u00a73."""\n'
    "    if not request.user.is_authenticated:\n"
    '        raise PermissionDenied(f"user {{request.user.id}} may not call {n}")\n'
    "    payload = json.loads(request.body or b'{{}}')\n"
    "    return Response({{'ok': True, 'items': [x.to_dict() for x in repo.find(**payload)]}})\n\n"
)
_PROSE = (
    "I looked at the module and the failing test. The handler validates the payload before the "
    "permission check, so an anonymous caller gets a 400 instead of a 403 \u2014 that is the bug. "
)


def _sized(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def realistic_history(count: int, seed: int = 7) -> list[Message]:
    """About `count` messages shaped like an agent session: user asks, assistant reasons and calls
    tools, tools answer with 1-2 KB of code; it ends after a complete tool batch (nothing to repair)."""
    rng = random.Random(seed)
    out: list[Message] = []
    n = 0
    while len(out) < count:
        n += 1
        turn = n // 6 + 1
        if n % 6 == 1:
            meta = MessageMeta(created_at=1.7e9 + n, turn=turn)
            out.append(UserMessage(_sized(_PROSE, rng.randint(200, 1200)), meta=meta))
            continue
        calls = tuple(
            ToolCall(
                id=f"call_{n}_{k}",
                name=rng.choice(["read_file", "grep_files", "apply_patch"]),
                arguments=json.dumps(
                    {
                        "path": f"src/pkg/module_{n % 40}.py",
                        "patch": _sized(_CODE.format(n=n), rng.randint(100, 900)),
                    }
                ),
            )
            for k in range(rng.randint(1, 2))
        )
        reasoning = (Reasoning(text=_sized(_PROSE, rng.randint(200, 600)), signature="sig" + "A" * 200),)
        out.append(
            AssistantMessage(
                content=_sized(_PROSE, rng.randint(50, 400)),
                reasoning=reasoning,
                tool_calls=calls,
                meta=MessageMeta(created_at=1.7e9 + n, turn=turn),
            )
        )
        for call in calls:
            content = _sized(_CODE.format(n=n), rng.randint(1000, 2000))
            meta = MessageMeta(created_at=1.7e9 + n, turn=turn, paths=(f"src/pkg/module_{n % 40}.py",))
            out.append(ToolResultMessage(call_id=call.id, name=call.name, content=content, meta=meta))
    return out


class Probe:
    """Process CPU and wall seconds spent in checkpoints and in `os.fsync`, summed since installed.

    Installed by wrapping `os.fsync` and `SessionHandle.append_messages` in this process (the store
    looks both up at call time); the wrappers add two clock reads per call and change nothing else.
    """

    def __init__(self) -> None:
        self.fsync_cpu = 0.0
        self.fsync_wall = 0.0
        self.fsyncs = 0
        self.checkpoint_cpu = 0.0
        self.checkpoint_wall = 0.0
        self.checkpoints = 0

    def install(self) -> None:
        """Start counting."""
        real_fsync = os.fsync
        real_append = SessionHandle.append_messages

        def fsync(fd: Any) -> None:
            cpu, wall = time.process_time(), time.perf_counter()
            try:
                real_fsync(fd)
            finally:
                self.fsync_cpu += time.process_time() - cpu
                self.fsync_wall += time.perf_counter() - wall
                self.fsyncs += 1

        def append_messages(handle: SessionHandle, messages: Sequence[Message], turn: int) -> int:
            cpu, wall = time.process_time(), time.perf_counter()
            try:
                return real_append(handle, messages, turn)
            finally:
                self.checkpoint_cpu += time.process_time() - cpu
                self.checkpoint_wall += time.perf_counter() - wall
                self.checkpoints += 1

        os.fsync = fsync
        SessionHandle.append_messages = append_messages  # type: ignore[method-assign,assignment]

    def reading(self) -> tuple[float, ...]:
        """The counters now, as a tuple that `Mark` keeps."""
        return (
            self.checkpoint_cpu,
            self.checkpoint_wall,
            float(self.checkpoints),
            self.fsync_cpu,
            self.fsync_wall,
            float(self.fsyncs),
        )


@dataclass(frozen=True)
class Mark:
    """The clocks and counters at one after-tool-batch boundary."""

    cpu: float
    wall: float
    probe: tuple[float, ...]
    messages: int
    rediscoveries: int


@dataclass(frozen=True)
class Interval:
    """One round trip: process CPU, wall, and the checkpoint / fsync parts of them (seconds)."""

    cpu: float
    wall: float
    checkpoint_cpu: float
    checkpoint_wall: float
    checkpoints: int
    fsync_cpu: float
    fsync_wall: float
    fsyncs: int
    messages: int
    rediscoveries: int


def intervals(marks: Sequence[Mark]) -> list[Interval]:
    """The round trips between consecutive marks."""
    out = []
    for a, b in itertools.pairwise(marks):
        d = [y - x for x, y in zip(a.probe, b.probe, strict=True)]
        out.append(
            Interval(
                cpu=b.cpu - a.cpu,
                wall=b.wall - a.wall,
                checkpoint_cpu=d[0],
                checkpoint_wall=d[1],
                checkpoints=int(d[2]),
                fsync_cpu=d[3],
                fsync_wall=d[4],
                fsyncs=int(d[5]),
                messages=a.messages,
                rediscoveries=b.rediscoveries - a.rediscoveries,
            )
        )
    return out


def make_workspace(root: Path) -> Path:
    """A small project with instruction files for the prompt re-check to watch."""
    ws = root / "ws"
    (ws / "src" / "pkg").mkdir(parents=True)
    (ws / "AGENTS.md").write_text("# Project\nRun `make test` before you finish.\n")
    (ws / "src" / "pkg" / "AGENTS.md").write_text("Keep handlers small.\n")
    (ws / "src" / "pkg" / "small.py").write_text("".join(f"VALUE_{n} = {n}\n" for n in range(12)))
    # Instruction files written less than two seconds ago are "racily clean" and force a rediscovery
    # on every request (instructions/reader.py, RACY_NS); a project's files are older than that.
    old = time.time() - 3600
    for path in (ws, *ws.rglob("*")):
        os.utime(path, (old, old))
    return ws


def session_options(ws: Path, home: Path, base_url: str, resume: str) -> SessionOptions:
    """The options `vtcode exec --resume` would build for the loopback server."""
    # The largest history (~1.1M estimated tokens) would be compacted, and the loopback script has no
    # summary replies: compaction stays off and the window is made large enough, so every round trip
    # still pays the before-request check (the request estimate) but never summarizes.
    agent = msgspec.structs.replace(
        AgentSettings(),
        provider="openai",
        model="gpt-4.1",
        approval="full-auto",
        max_turns=100,
        harness=HarnessSettings(auto_compaction_enabled=False),
    )
    settings = Settings(agent=agent, models={"gpt-4.1": ModelSettings(context_window=100_000_000)})
    env = {"OPENAI_API_KEY": "bench-key", "OPENAI_BASE_URL": base_url, "HOME": str(home)}
    return SessionOptions(workspace=ws, settings=settings, home=home / ".vtcode", env=env, resume=resume)


def store_session(home: Path, ws: Path, history: Sequence[Message]) -> str:
    """Write a stored session holding `history`; returns its id."""
    store = SessionStore(home / ".vtcode", time.time, lambda: str(uuid.uuid4()))
    handle = store.create(ws, "bench", model="gpt-4.1", provider="openai")
    with handle:
        handle.append_messages(history, max(m.meta.turn or 0 for m in history))
    return handle.id


async def one_turn(
    options: SessionOptions, probe: Probe, *, floor_runs: int = 0
) -> tuple[list[Interval], tuple[float, int]]:
    """Resume the session and run one turn of TOOL_REPLIES tool round trips.

    Returns the measured round trips and, with `floor_runs`, the baseline for the session's next request
    (CPU seconds, body bytes).
    """
    floor = (math.nan, 0)
    session = await Session.open(options)
    marks: list[Mark] = []

    # Not public API: how often the prompt re-check found a reason to run instruction discovery again.
    prompt = session._wiring.prompt

    async def mark(batch: AfterToolBatch) -> Sequence[Message]:
        cpu, wall = time.process_time(), time.perf_counter()
        marks.append(Mark(cpu, wall, probe.reading(), len(session.messages), prompt.rebuilds))
        return ()

    session.hooks.after_tool_batch.append(mark)
    try:
        await session.submit(UserInput("look at small.py again"))
        async for event in session.events():
            # A minimal front end: it reads every event (the CPU of handing them over is counted).
            if isinstance(event, TurnFailed):
                raise RuntimeError(f"the turn failed: {event.message}")
            if isinstance(event, TurnCompleted):
                break
        if floor_runs:
            floor = floor_cpu(session, floor_runs)
    finally:
        await session.aclose()
    assert len(marks) == TOOL_REPLIES, f"{len(marks)} tool batches, expected {TOOL_REPLIES}"
    return intervals(marks), floor


def floor_cpu(session: Session, runs: int) -> tuple[float, int]:
    """Median CPU seconds of msgspec encoding the body of the session's next request, and its size."""
    # The runner is not public API; the bench needs the exact request the turn loop builds.
    request = session._wiring.runner.build_request()
    plain: dict[str, Any] = build_chat_request(request, provider="openai")
    samples = []
    body = b""
    for _ in range(runs + 1):
        started = time.process_time()
        body = msgspec.json.encode(plain)
        samples.append(time.process_time() - started)
    return statistics.median(samples[1:]), len(body)


@dataclass(frozen=True)
class Row:
    """The figures of one history size."""

    size: int
    trips: list[Interval]
    floor: float
    body: int


async def measure(plan: dict[int, int], root: Path) -> list[Row]:
    """Run `plan` (history size -> measured round trips) and return one row per size."""
    ws = make_workspace(root)
    home = root / "home"
    turns = {size: math.ceil(runs / MEASURED_PER_TURN) for size, runs in plan.items()}
    warmup = 1
    server = ServerProcess(_SERVER, str(sum(turns.values()) + warmup), str(TOOL_REPLIES))
    probe = Probe()
    probe.install()
    rows: list[Row] = []
    try:
        # One unmeasured turn first: imports, caches and first-use costs of the process.
        warm_id = store_session(home, ws, realistic_history(SIZES[0]))
        await one_turn(session_options(ws, home, server.base_url, warm_id), probe)
        for size, count in turns.items():
            history = realistic_history(max(1, size - MEAN_GROWTH))
            trips: list[Interval] = []
            for turn in range(count):
                # A fresh copy of the stored session per turn, so the history does not keep growing.
                session_id = store_session(home, ws, history)
                options = session_options(ws, home, server.base_url, session_id)
                measured, found = await one_turn(options, probe, floor_runs=30 if turn == 0 else 0)
                trips += measured
                if turn == 0:
                    floor, body = found
            rows.append(Row(size, trips, floor, body))
    finally:
        server.close()
    return rows


def filesystem(path: Path) -> str:
    """The type of the file system holding `path` (from /proc/mounts), or "?"."""
    best, kind = "", "?"
    real = os.path.realpath(path)
    try:
        with open("/proc/mounts") as mounts:
            for line in mounts:
                fields = line.split()
                mount = fields[1]
                inside = real == mount or real.startswith(mount.rstrip("/") + "/")
                if inside and len(mount) > len(best):
                    best, kind = mount, fields[2]
    except OSError:
        pass
    return kind


def report(rows: Sequence[Row], store_dir: Path) -> None:
    """Print the table, the growth and the verdict."""
    print(
        "one model round trip of a resumed Session (tool call + both checkpoints), "
        "vtcode process CPU, median per round trip"
    )
    print(f"store on {filesystem(store_dir)} ({store_dir}); model server in a child process")
    print(
        f"{'messages':>8} {'n':>3} {'body KB':>8} {'msgspec ms':>10} {'vtcode CPU ms':>13} {'ratio':>7}"
        f" {'us/msg':>7} {'ckpt CPU ms':>11} {'fsync CPU ms':>12} {'wall ms':>8} {'fsync wall ms':>13}"
    )
    for row in rows:
        t = row.trips
        cpu = statistics.median(i.cpu for i in t)
        mean_messages = statistics.mean(i.messages for i in t)
        print(
            f"{row.size:>8,} {len(t):>3} {row.body / 1024:>8.0f} {row.floor * 1000:>10.3f}"
            f" {cpu * 1000:>13.2f} {cpu / row.floor:>6.1f}x {cpu / mean_messages * 1e6:>7.1f}"
            f" {statistics.median(i.checkpoint_cpu for i in t) * 1000:>11.2f}"
            f" {statistics.median(i.fsync_cpu for i in t) * 1000:>12.3f}"
            f" {statistics.median(i.wall for i in t) * 1000:>8.1f}"
            f" {statistics.median(i.fsync_wall for i in t) * 1000:>13.2f}"
        )
    print()
    print("share of the two checkpoints and of their fsyncs (sums over the measured round trips)")
    for row in rows:
        t = row.trips
        cpu, wall = sum(i.cpu for i in t), sum(i.wall for i in t)
        ck = sum(i.checkpoints for i in t) / len(t)
        fs = sum(i.fsyncs for i in t) / len(t)
        mean_messages = statistics.mean(i.messages for i in t)
        print(
            f"{row.size:>8,} messages (mean {mean_messages:,.0f} in the requests):"
            f" {ck:.0f} checkpoints, {fs:.0f} fsyncs per round trip;"
            f" checkpoints {sum(i.checkpoint_cpu for i in t) / cpu:5.1%} of CPU,"
            f" fsyncs {sum(i.fsync_cpu for i in t) / cpu:5.1%} of CPU,"
            f" {sum(i.fsync_wall for i in t) / wall:5.1%} of wall;"
            f" instruction rediscoveries: {sum(i.rediscoveries for i in t)} in {len(t)} round trips"
        )
    print()
    cpu_of = {row.size: statistics.median(i.cpu for i in row.trips) for row in rows}
    net_of = {row.size: statistics.median(i.cpu - i.fsync_cpu for i in row.trips) for row in rows}
    c50, c500, c5000 = (cpu_of[s] for s in SIZES)
    n50, n500, n5000 = (net_of[s] for s in SIZES)
    print(
        f"growth 50 -> 500:    {c500 / c50:5.2f}x ({n500 / n50:5.2f}x without fsync CPU)"
        "  (10x messages; <= 10x is linear or better)"
    )
    print(
        f"growth 500 -> 5,000: {c5000 / c500:5.2f}x ({n5000 / n500:5.2f}x without fsync CPU)"
        "  (10x messages; <= 10x is linear or better)"
    )
    verdict = "met" if c500 * 1000 <= TARGET_MS_AT_500 else "MISSED"
    target = f"target <= {TARGET_MS_AT_500:.0f} ms CPU per round trip at 500 messages"
    print(f"{target}: {c500 * 1000:.2f} ms, {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer round trips")
    parser.add_argument(
        "--runs",
        type=int,
        default=None,
        help="measured round trips at 50 and 500 messages (5,000 gets a quarter, at least 5)",
    )
    parser.add_argument(
        "--dir", type=Path, default=None, help="where the store and workspace go (default: a temp dir)"
    )
    args = parser.parse_args()
    runs = args.runs or (10 if args.quick else 40)
    plan = {50: runs, 500: runs, 5_000: max(MEASURED_PER_TURN, runs // 4)}
    with tempfile.TemporaryDirectory(prefix="vtcode-harness-bench-", dir=args.dir) as tmp:
        root = Path(tmp)
        rows = asyncio.run(measure(plan, root))
        report(rows, root)


if __name__ == "__main__":
    main()
