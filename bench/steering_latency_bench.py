"""How fast a follow-up becomes durable, and how fast a running session applies it.

1. The durable write of one intent (`IntentStore.enqueue`: lock, read, temp file + fsync, rename, fsync
   of the directory) against a bare write + fsync of 1 KB, in the same run (target: at most 3x).
2. `vtcode steer` as a process, from start to exit (the id is printed once the intent is durable),
   against `python -c pass` in the same run.
3. Acceptance to `intent.applied` in an open, idle session: another writer enqueues, the session's poller
   (every 100 ms) picks it up, starts a turn and checkpoints the tagged message.

Run: .venv/bin/python bench/steering_latency_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import msgspec
from loopback_process import ServerProcess

from vtcode.config.schema import AgentSettings, Settings
from vtcode.core.compaction.envelope import PendingIntent
from vtcode.protocol.events import IntentApplied, ThreadStarted, TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.store.intents import IntentStore

SERVER = """
import sys
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
with server_for("chat", [Reply(text="ok")] * 100_000) as server:
    print(server.base_url, flush=True)
    sys.stdin.read()
"""


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def durable_write(runs: int, directory: Path) -> tuple[float, float]:
    """Median ms of an intent's durable write, and of a bare 1 KB write + fsync."""
    store = IntentStore(directory)
    intents: list[float] = []
    bare: list[float] = []
    payload = os.urandom(512).hex().encode()
    for n in range(runs):
        start = time.perf_counter()
        fd = os.open(directory / "bare.bin", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, payload)
        os.fsync(fd)
        os.close(fd)
        bare.append(time.perf_counter() - start)
        start = time.perf_counter()
        store.enqueue(PendingIntent(id=str(uuid.uuid4()), text=f"follow-up {n}"))
        intents.append(time.perf_counter() - start)
        store.mark_applied([p.id for p in store.read().pending_intents])
    return _median_ms(intents), _median_ms(bare)


def steer_process(runs: int, home: Path, session_id: str) -> tuple[float, float]:
    """Median ms of a whole `vtcode steer` process, and of `python -c pass`."""
    env = {**os.environ, "HOME": str(home), "VTCODE_HOME": str(home / ".vtcode")}
    steer: list[float] = []
    python: list[float] = []
    for n in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        python.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "vtcode", "steer", "--session", session_id, "--mode", "queue", f"n{n}"],
            env=env, cwd=home, check=True, capture_output=True,
        )  # fmt: skip
        steer.append(time.perf_counter() - start)
        IntentStore(home / ".vtcode" / "sessions" / session_id).update(
            lambda e: msgspec.structs.replace(e, pending_intents=())
        )
    return _median_ms(steer), _median_ms(python)


async def apply_latency(runs: int, root: Path, base_url: str) -> tuple[float, str]:
    """Median ms from an external enqueue to `intent.applied` in an idle open session; its id."""
    settings = Settings(agent=msgspec.structs.replace(AgentSettings(), provider="openai", model="gpt-4.1"))
    env = {"OPENAI_API_KEY": "bench", "OPENAI_BASE_URL": base_url, "HOME": str(root)}
    options = SessionOptions(workspace=root, settings=settings, home=root / ".vtcode", env=env)
    session = await Session.open(options)
    events = session.events()
    assert isinstance(await anext(events), ThreadStarted)
    await session.submit(UserInput("first"))
    async for event in events:
        if isinstance(event, TurnCompleted):
            break
    store = IntentStore(root / ".vtcode" / "sessions" / session.id)
    samples: list[float] = []
    for n in range(runs):
        intent = PendingIntent(id=str(uuid.uuid4()), text=f"later {n}", mode="queue")
        start = time.perf_counter()
        await asyncio.to_thread(store.enqueue, intent)
        async for event in events:
            if isinstance(event, IntentApplied) and event.intent_id == intent.id:
                samples.append(time.perf_counter() - start)
                break
        async for event in events:
            if isinstance(event, TurnCompleted):
                break
    await session.aclose()
    return _median_ms(samples), session.id


def main() -> None:
    """Print the three figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    server = ServerProcess(SERVER)
    try:
        with tempfile.TemporaryDirectory(dir=Path.cwd()) as tmp:
            root = Path(tmp)
            intent_ms, bare_ms = durable_write(args.runs * 5, root)
            print(f"durable intent write: {intent_ms:.2f} ms; bare 1 KB write+fsync: {bare_ms:.2f} ms; "
                  f"ratio {intent_ms / bare_ms:.2f}x (target <= 3x)")  # fmt: skip
            applied_ms, session_id = asyncio.run(apply_latency(args.runs, root, server.base_url))
            print(f"acceptance -> intent.applied in an idle session: {applied_ms:.1f} ms median")
            steer_ms, python_ms = steer_process(max(5, args.runs // 3), root, session_id)
            print(f"`vtcode steer` start -> durable (process exit): {steer_ms:.0f} ms; `python -c pass`: "
                  f"{python_ms:.0f} ms; ratio {steer_ms / python_ms:.1f}x")  # fmt: skip
    finally:
        server.close()


if __name__ == "__main__":
    main()
