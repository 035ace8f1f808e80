"""What survives compaction in a live session: the user's corrections, steering intents, archived text.

Loopback Chat server, `context.max_context_tokens = 30000`, file reads as the tool output that fills the
context; the model is `tests.runtime.compaction_agent.Agent`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import threading
from pathlib import Path

from tests.runtime.compaction_agent import (
    GOOD_SUMMARY,
    Agent,
    budget_options,
    texts,
    wait_turn_end,
    write_files,
)
from tests.runtime.session_helpers import Reader
from vtcode.core.compaction.envelope import ENVELOPE_HEADER, PendingIntent
from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.protocol.events import (
    IntentApplied,
    IntentQueued,
    Notice,
    ThreadCompacted,
    TurnCompleted,
    TurnFailed,
)
from vtcode.protocol.messages import SystemMessage
from vtcode.protocol.ops import Compact, UserInput
from vtcode.runtime.session import Session
from vtcode.store.intents import IntentStore
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, ScriptToolCall

BUDGET = 30_000
CORRECTIONS = [
    "use tabs, not spaces, in every file",
    "never touch migrations/",
    "do not add new dependencies",
    "keep the public API names unchanged",
    "write commit messages in the imperative",
    "tests go under tests/unit, not test/",
    "no print statements; use the logger",
    "target Python 3.11, not 3.12",
    "leave the vendored/ folder alone",
    "run the linter before you say you are done",
]


async def _turn(session: Session, reader: Reader, text: str, **fields: object) -> None:
    ended = len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed))
    await session.submit(UserInput(text, **fields))  # type: ignore[arg-type]
    await wait_turn_end(reader, ended)


async def test_ten_corrections_survive_a_120_turn_session_with_many_compactions(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 10, 60), reads_per_turn=1)
    plant = {3 + 12 * n: text for n, text in enumerate(CORRECTIONS)}
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=BUDGET))
        reader = Reader(session)
        for turn in range(120):
            await _turn(session, reader, plant.get(turn, f"step {turn}: go on"))
        await reader.close()
    assert not reader.of(TurnFailed)
    assert len(reader.of(ThreadCompacted)) >= 5
    last = agent.bodies("main")[-1]
    sent = [m["content"] for m in last["messages"] if m["role"] in ("user", "system")]
    for correction in CORRECTIONS:
        assert any(correction in text for text in sent), correction


async def test_a_steering_message_compacted_away_is_not_applied_again_on_resume(tmp_path: Path) -> None:
    """openai/codex#21291: compaction between enqueue and resume must not re-apply an intent."""
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150))
    with OpenAIChatServer(responder=agent) as server:
        opts = budget_options(ws, tmp_path, server, max_context_tokens=BUDGET)
        session = await Session.open(opts)
        reader = Reader(session)
        await _turn(session, reader, "start the refactor")
        store = IntentStore(tmp_path / ".vtcode" / "sessions" / session.id)
        # Accepted while the session runs (as `vtcode steer` does), then picked up and applied.
        store.enqueue(PendingIntent(id="steer-1", text="also rename the CLI flag", mode="queue"))
        stale = store.read()
        await reader.wait_for(IntentApplied, lambda e: e.intent_id == "steer-1")
        await wait_turn_end(reader, 1)
        for n in range(6):
            await _turn(session, reader, f"task {n}: read the next files")
        await reader.close()
        assert reader.of(ThreadCompacted)
        # The tagged message was summarized away; the compaction recorded it as applied.
        assert all(m.meta.intent_id != "steer-1" for m in session.messages)
        assert "steer-1" in store.read().applied_intent_ids
        # A crash that loses the envelope's last writes: the intent looks pending again.
        store.update(lambda _: stale)
        assert [p.id for p in store.read().pending_intents] == ["steer-1"]

        resumed = await Session.open(dataclasses.replace(opts, resume=session.id))
        second = Reader(resumed)
        await second.close()
    assert resumed.pending == ()
    assert not [e for e in second.of(IntentQueued) if e.intent_id == "steer-1"]
    assert any("not applied again" in e.message for e in second.of(Notice))
    assert store.read().pending_intents == ()


async def test_recall_history_finds_text_that_was_compacted_away(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150))
    agent.special["where was beta77 of file 0?"] = ScriptToolCall(
        "recall_history", json.dumps({"query": "alpha0 beta77"}), id="recall_1"
    )
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=BUDGET))
        reader = Reader(session)
        for n in range(6):
            await _turn(session, reader, f"task {n}: read the next files")
        assert reader.of(ThreadCompacted)
        assert "alpha0 beta77" not in json.dumps(agent.bodies("main")[-1])
        await _turn(session, reader, "where was beta77 of file 0?")
        await reader.close()
    body = agent.bodies("main")[-1]
    results = [m["content"] for m in body["messages"] if m.get("tool_call_id") == "recall_1"]
    assert len(results) == 1
    assert "file 0 line 77: alpha0 beta77" in results[0]
    assert "[segment 1 #" in results[0]


async def test_compact_between_turns_compacts_now_with_the_envelope_first(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150))
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=BUDGET))
        reader = Reader(session)
        for n in range(3):
            await _turn(session, reader, f"task {n}: read the next files")
        assert not reader.of(ThreadCompacted)  # under the soft threshold
        await session.submit(Compact())
        event = await reader.wait_for(ThreadCompacted)
        first, second = session.messages[:2]
        await _turn(session, reader, "go on")
        await reader.close()
    assert event.trigger == "manual"
    assert event.turn_id is None
    assert isinstance(first, SystemMessage)
    assert first.content.startswith(ENVELOPE_HEADER)
    assert isinstance(second, SystemMessage)
    assert second.content.startswith(SUMMARY_PREFIX)
    assert any(t.startswith(SUMMARY_PREFIX) for t in texts(agent.bodies("main")[-2], "system"))


async def test_compact_during_a_turn_waits_for_its_next_boundary(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150))
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=BUDGET))
        reader = Reader(session)
        for n in range(3):
            await _turn(session, reader, f"task {n}: read the next files")
        agent.hold = threading.Event()
        await session.submit(UserInput("task 3: read the next files"))
        # The server thread holds the turn's first request: the turn is surely running.
        while not session.running or len(agent.bodies("main")) < 10:  # noqa: ASYNC110 - another thread
            await asyncio.sleep(0.01)
        await session.submit(Compact())
        assert reader.of(ThreadCompacted) == []
        agent.hold.set()
        await wait_turn_end(reader, 3)
        await reader.close()
    compacted = reader.of(ThreadCompacted)
    assert [e.trigger for e in compacted] == ["manual"]
    assert compacted[0].turn_id == "turn_4"
    assert any("next request" in e.message for e in reader.of(Notice))
    # The request after the boundary is the compacted one; the one before it was not.
    mains = agent.bodies("main")
    assert not any(t.startswith(SUMMARY_PREFIX) for t in texts(mains[9], "system"))
    assert any(t.startswith(SUMMARY_PREFIX) for t in texts(mains[10], "system"))


async def test_compact_during_a_turn_that_makes_no_further_request_runs_after_it(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150))
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=BUDGET))
        reader = Reader(session)
        for n in range(3):
            await _turn(session, reader, f"task {n}: read the next files")
        agent.hold, agent.hold_from = threading.Event(), 11
        await session.submit(UserInput("task 3: read the next files"))
        # Held: the turn's last request (it answers without tools).
        while len(agent.bodies("main")) < 12:  # noqa: ASYNC110 - the server thread
            await asyncio.sleep(0.01)
        await session.submit(Compact())
        agent.hold.set()
        event = await reader.wait_for(ThreadCompacted)
        await reader.close()
    assert event.trigger == "manual"
    assert event.turn_id is None
    assert len(agent.bodies("main")) == 12
    first = session.messages[0]
    assert isinstance(first, SystemMessage)
    assert first.content.startswith(ENVELOPE_HEADER)


async def test_each_request_carries_one_summary_and_a_new_summary_replaces_the_last(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    marks = iter(range(1, 1_000))

    def summarize(body: dict[str, object]) -> Reply:
        mark = next(marks)
        return Reply(text=GOOD_SUMMARY.replace("## Goal\nnone", f"## Goal\nsummary-mark-{mark:03d}"))

    agent = Agent(write_files(ws, 12, 150), summarize=summarize)
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=BUDGET))
        reader = Reader(session)
        for turn in range(12):
            await _turn(session, reader, f"step {turn}: read on")
        await reader.close()
    assert not reader.of(TurnFailed)
    assert len(reader.of(ThreadCompacted)) >= 2
    latest = 0
    for kind, body in agent.log:
        sent = json.dumps(body)
        found = sorted(set(re.findall(r"summary-mark-(\d{3})", sent)))
        if kind == "summary":
            # The summarizer gets the summary so far as such, once; it writes a fresh one.
            assert found == ([f"{latest:03d}"] if latest else []), found
            assert sent.count("summary-mark-") == len(found)
            latest += 1
        elif latest:
            assert found == [f"{latest:03d}"], found
            assert sent.count("summary-mark-") == 1
            # The envelope in the history names the archive, not the summary or every file read.
            (envelope,) = [t for t in texts(body, "system") if t.startswith(ENVELOPE_HEADER)]
            assert "Summary:" not in envelope
            assert "Touched Files" not in envelope
