"""What a subagent costs to start and to keep, against its parent's own start in the same run.

1. Start: from the `task` call's item (`item.started`, stamped by the session's clock) to the child's
   first request at the loopback server, against the parent's own start: from `Session.open` to its
   first request. Both are measured in the same process with warm imports (the parent's first start in
   the process, with cold imports, is printed too). Target: child <= 0.3x the parent.
2. Memory: RSS growth with N children idle at once (each waits on its first model reply), per child.

Run: .venv/bin/python bench/subagent_bench.py [--rounds N] [--children N]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

import psutil

from vtcode.config.schema import AgentSettings, AgentsSettings, Settings
from vtcode.protocol.events import Event, ItemStarted, ToolCallItem, TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import RecordedRequest, Reply, ScriptToolCall, Step
from vtcode.testing.wire import cli_env, server_for


def _options(workspace: Path, server: Any, children: int) -> SessionOptions:
    settings = Settings(
        agent=AgentSettings(provider="openai", model="gpt-4.1", approval="full-auto"),
        agents=AgentsSettings(max_concurrent=max(children, 1)),
    )
    return SessionOptions(
        workspace=workspace,
        settings=settings,
        home=workspace / ".home" / ".vtcode",
        env={**cli_env("chat", server), "HOME": str(workspace / ".home")},
        headless=True,
    )


def _task(brief: str, call_id: str) -> ScriptToolCall:
    arguments = {"subagent_type": "general", "description": "bench", "prompt": brief}
    return ScriptToolCall("task", json.dumps(arguments), id=call_id)


async def _drain(session: Session, seen: list[Event], done: asyncio.Event) -> None:
    async for event in session.events():
        seen.append(event)
        if isinstance(event, TurnCompleted):
            done.set()


async def start_round(workspace: Path) -> tuple[float, float]:
    """Seconds from `Session.open` to the parent's first request, and from `task` to the child's."""
    script: list[Step] = [
        Reply(tool_calls=(_task("CHILD brief", "t1"),)),
        Reply(text="child"),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        started = time.monotonic()
        session = await Session.open(_options(workspace, server, 1), clock=time.monotonic)
        seen: list[Event] = []
        done = asyncio.Event()
        reader = asyncio.create_task(_drain(session, seen, done))
        await session.submit(UserInput("go"))
        await asyncio.wait_for(done.wait(), 60)
        await session.aclose()
        await reader
        parent_first = server.requests[0].received_at
        child_first = server.requests[1].received_at
    called = next(
        e.ts
        for e in seen
        if isinstance(e, ItemStarted) and isinstance(e.item, ToolCallItem) and e.item.name == "task"
    )
    assert called is not None
    return parent_first - started, child_first - called


async def memory_round(workspace: Path, children: int) -> tuple[float, float]:
    """MiB of RSS, and of Python heap (tracemalloc), per child while `children` children wait on their
    first reply."""
    gate = threading.Event()
    arrived = threading.Semaphore(0)

    def respond(request: RecordedRequest) -> Step:
        said = json.dumps([m for m in request.json()["messages"] if m["role"] == "user"])
        if "CHILD" in said:
            arrived.release()
            gate.wait(120)
            return Reply(text="child")
        return Reply(text="ok")

    calls = tuple(_task(f"CHILD {n}", f"t{n}") for n in range(children))
    with server_for("chat", [Reply(tool_calls=calls)]) as server:
        server.responder = respond
        session = await Session.open(_options(workspace, server, children))
        seen: list[Event] = []
        done = asyncio.Event()
        reader = asyncio.create_task(_drain(session, seen, done))
        gc.collect()
        tracemalloc.start()
        heap_before = tracemalloc.get_traced_memory()[0]
        before = psutil.Process().memory_info().rss
        await session.submit(UserInput("go"))
        for _ in range(children):
            await asyncio.to_thread(arrived.acquire, True, 120)
        gc.collect()
        during = psutil.Process().memory_info().rss
        heap_during = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        gate.set()
        await asyncio.wait_for(done.wait(), 120)
        await session.aclose()
        await reader
    return (during - before) / children / 2**20, (heap_during - heap_before) / children / 2**20


async def main(rounds: int, children: int) -> None:
    """Print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name in ("cold", "memory", *(f"r{n}" for n in range(rounds))):
            (root / name).mkdir()
        cold_parent, cold_child = await start_round(root / "cold")
        parents: list[float] = []
        kids: list[float] = []
        for n in range(rounds):
            parent, child = await start_round(root / f"r{n}")
            parents.append(parent)
            kids.append(child)
        rss, heap = await memory_round(root / "memory", children)
    parent, child = statistics.median(parents), statistics.median(kids)
    print(f"parent start (cold imports, first in process): {cold_parent * 1000:7.1f} ms")
    print(f"child start  (first in process):               {cold_child * 1000:7.1f} ms")
    print(f"parent start, median of {rounds}:                  {parent * 1000:7.1f} ms")
    print(f"child start,  median of {rounds}:                  {child * 1000:7.1f} ms")
    print(f"child / parent start: {child / parent:.2f}x (target <= 0.3x)")
    print(f"memory per idle child ({children} at once): {rss:.2f} MiB RSS, {heap:.2f} MiB Python heap")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--children", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.children))
