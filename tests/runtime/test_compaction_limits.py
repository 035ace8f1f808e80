"""Limits around compaction: off means off, recovery after an overflow, the window and gain checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.runtime.compaction_agent import (
    OVERFLOW,
    Agent,
    budget_options,
    texts,
    wait_turn_end,
    write_files,
)
from tests.runtime.session_helpers import Reader
from vtcode.core.compaction.envelope import ENVELOPE_HEADER
from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.protocol.events import Notice, ThreadCompacted, TurnCompleted, TurnFailed
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.openai_chat_server import OpenAIChatServer


async def _session(tmp_path: Path, agent: Agent, prompts: list[str], budget: int, **settings: Any) -> Reader:
    ws = tmp_path / "ws"
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(
            budget_options(ws, tmp_path, server, max_context_tokens=budget, **settings)
        )
        reader = Reader(session)
        for prompt in prompts:
            ended = len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed))
            await session.submit(UserInput(prompt))
            await wait_turn_end(reader, ended)
        await reader.close()
    return reader


def _tasks(count: int) -> list[str]:
    return [f"task {n}: read the next files" for n in range(count)]


async def test_with_automatic_compaction_off_nothing_compacts_over_the_thresholds(tmp_path: Path) -> None:
    agent = Agent(write_files(tmp_path / "ws", 12, 150))
    reader = await _session(tmp_path, agent, _tasks(9), 30_000, auto_compaction_enabled=False)
    assert not reader.of(ThreadCompacted)
    assert not agent.bodies("summary")
    assert len(reader.of(TurnCompleted)) == 9


async def test_an_overflow_after_tool_output_is_recovered_by_compacting_older_turns(tmp_path: Path) -> None:
    agent = Agent(write_files(tmp_path / "ws", 12, 150))
    # Turn 6 (requests 15, 16, 17): its second request overflows once, after the first read.
    agent.faults[16] = OVERFLOW
    reader = await _session(tmp_path, agent, _tasks(6), 60_000)
    assert not reader.of(TurnFailed)
    assert len(reader.of(TurnCompleted)) == 6
    (event,) = reader.of(ThreadCompacted)
    assert event.trigger == "recovery"
    assert event.turn_id == "turn_6"
    overflowed, retried = agent.bodies("main")[16:18]
    assert overflowed["messages"][-1]["role"] == "tool"
    # Placement "start": the envelope first, then the summary; the turn itself re-appended verbatim.
    first, second = retried["messages"][1:3]  # after the system prompt
    assert first["content"].startswith(ENVELOPE_HEADER)
    assert second["content"].startswith(SUMMARY_PREFIX)
    assert retried["messages"][-2:] == overflowed["messages"][-2:]
    assert "task 5: read the next files" in [m["content"] for m in retried["messages"] if m["role"] == "user"]


async def test_with_compaction_off_an_overflow_fails_the_turn_and_suggests_compact(tmp_path: Path) -> None:
    agent = Agent(write_files(tmp_path / "ws", 12, 150))
    agent.faults[16] = OVERFLOW
    reader = await _session(tmp_path, agent, _tasks(6), 60_000, auto_compaction_enabled=False)
    (failed,) = reader.of(TurnFailed)
    assert failed.kind == "context_overflow"
    assert "/compact" in failed.hint
    assert not reader.of(ThreadCompacted)


async def test_a_request_over_the_window_fails_naming_the_biggest_items(tmp_path: Path) -> None:
    agent = Agent(write_files(tmp_path / "ws", 2, 10))
    pasted = "Here is the log:\n" + "".join(f"event {i}: worker {i % 7} restarted\n" for i in range(1_500))
    reader = await _session(
        tmp_path, agent, ["hello", pasted], 0, window=8_000, auto_compaction_enabled=False
    )
    (failed,) = reader.of(TurnFailed)
    assert "the model's window is 8,000" in failed.message
    assert 'user message "Here is the log: event 0: worker 0 restarted' in failed.message
    assert "/compact" in failed.hint
    # Nothing over the window was sent: the failing turn made no request.
    assert len(agent.bodies("main")) == 3


async def test_a_compaction_that_cannot_gain_fails_the_turn_instead_of_looping(tmp_path: Path) -> None:
    agent = Agent(write_files(tmp_path / "ws", 12, 150))
    # Under 1,500 even the system prompt and tools with the newest request alone exceed the soft threshold
    # (a smaller tail is tried first: at 3,000 a compaction now gains by keeping less of the tail).
    reader = await _session(tmp_path, agent, _tasks(4), 30_000, auto_compaction_threshold_tokens=1_500)
    assert len(reader.of(ThreadCompacted)) == 1
    assert any("another compaction would not help" in e.message for e in reader.of(Notice))
    failed = reader.of(TurnFailed)
    assert failed
    assert "compacting again would not gain" in failed[0].message
    after = [b for b in agent.bodies("main") if any(t.startswith(SUMMARY_PREFIX) for t in texts(b, "system"))]
    assert after  # the one compaction that ran was applied


async def test_without_persist_history_nothing_is_archived_and_no_envelope_is_sent(tmp_path: Path) -> None:
    agent = Agent(write_files(tmp_path / "ws", 12, 150))
    reader = await _session(tmp_path, agent, _tasks(6), 30_000, persist_history=False)
    compacted = reader.of(ThreadCompacted)
    assert compacted
    assert {e.artifact_path for e in compacted} == {None}
    assert not list((tmp_path / ".vtcode" / "sessions").glob("*/archive"))
    last = agent.bodies("main")[-1]
    assert any(t.startswith(SUMMARY_PREFIX) for t in texts(last, "system"))
    assert not any(t.startswith(ENVELOPE_HEADER) for t in texts(last, "system"))
