"""Compaction in a live session over the loopback Chat server: thresholds, summaries, failures, recall.

The session budget is `context.max_context_tokens = 30000` (hard 27,000, soft 24,300, tail 13,500); the
model's window is gpt-4.1's. Tool outputs (file reads) push the context over the thresholds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.runtime.compaction_agent import (
    GOOD_SUMMARY,
    OVERFLOW,
    Agent,
    Boundary,
    BoundaryRecorder,
    budget_options,
    texts,
    wait_turn_end,
    write_files,
)
from tests.runtime.session_helpers import Reader
from vtcode.core.compaction.retention import RETAINED_HEADER
from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.core.compaction.thresholds import Thresholds, thresholds
from vtcode.protocol.events import ThreadCompacted, TurnCompleted, TurnFailed
from vtcode.protocol.messages import Message, SystemMessage, UserMessage
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.store.archive import read_segment
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Step
from vtcode.tokens.encoding import text_counter

BUDGET = 30_000
GPT41_WINDOW = 1_047_576
LIMITS = thresholds(GPT41_WINDOW, BUDGET)
FIRST_PROMPT = "Rename Frobnicator everywhere; never touch migrations/"


def expected_reasons(boundaries: list[Boundary], limits: Thresholds) -> list[str]:
    """Walk the boundaries with reference 3.2: soft marks the next boundary, hard compacts at once."""
    assert limits.hard is not None
    assert limits.soft is not None
    pending = False
    reasons: list[str] = []
    for number, boundary in enumerate(boundaries):
        if boundary.compacted:
            assert pending or boundary.estimate >= limits.hard, (number, boundary.estimate)
            reasons.append("hard" if boundary.estimate >= limits.hard else "soft")
            pending = False
        else:
            assert not pending, f"boundary {number}: a pending compaction did not run"
            assert boundary.estimate < limits.hard or len(boundary.before) <= 10, (number, boundary.estimate)
            pending = boundary.estimate >= limits.soft
    return reasons


async def _run(
    tmp_path: Path, agent: Agent, prompts: list[str], **harness: Any
) -> tuple[Reader, BoundaryRecorder, Session]:
    ws = tmp_path / "ws"
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(
            budget_options(ws, tmp_path, server, max_context_tokens=BUDGET, **harness)
        )
        recorder = BoundaryRecorder()
        session.hooks.before_request.insert(0, recorder.first)
        session.hooks.before_request.append(recorder.last)
        reader = Reader(session)
        for prompt in prompts:
            ended = len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed))
            await session.submit(UserInput(prompt))
            await wait_turn_end(reader, ended)
        await reader.close()
    return reader, recorder, session


def _prompts(turns: int) -> list[str]:
    return [FIRST_PROMPT, *(f"task {n}: read the next files" for n in range(1, turns))]


async def test_tool_outputs_over_a_30k_budget_compact_at_the_boundaries_the_rules_say(tmp_path: Path) -> None:
    files = write_files(tmp_path / "ws", 12, 150)
    # One large file: a read of it jumps over both thresholds at once.
    (tmp_path / "ws" / "big.txt").write_text(
        "".join(f"big line {i}: {i * 7919} epsilon\n" for i in range(1_400))
    )
    files[9] = "big.txt"
    agent = Agent(files)
    reader, recorder, session = await _run(tmp_path, agent, _prompts(9))

    assert not reader.of(TurnFailed)
    assert len(reader.of(TurnCompleted)) == 9
    reasons = expected_reasons(recorder.boundaries, LIMITS)
    compacted = reader.of(ThreadCompacted)
    assert [e.reason for e in compacted] == reasons
    assert {"soft", "hard"} <= set(reasons), reasons
    assert {e.trigger for e in compacted} == {"auto"}
    assert {e.mode for e in compacted} == {"local"}
    count = text_counter()
    summaries = agent.bodies("summary")
    assert len(summaries) == len(compacted)
    for body in summaries:
        assert count(json.dumps(body)) < BUDGET
        assert body["messages"][-1]["role"] == "user"
    # The request after each compaction: summary, the user's words, the verbatim tail (an oversized
    # newest group, here after the large read, is split: its request and newest whole batches stay,
    # a single batch too big for the tail alone is shortened).
    mains = agent.bodies("main")
    positions = [i for i, (kind, _) in enumerate(agent.log) if kind == "summary"]
    for at in positions:
        after = agent.log[at + 1][1]
        system = texts(after, "system")
        assert any(t.startswith(SUMMARY_PREFIX) and GOOD_SUMMARY in t for t in system)
        assert any(t.startswith(RETAINED_HEADER) and FIRST_PROMPT in t for t in system)
    for boundary in (b for b in recorder.boundaries if b.compacted):
        assert boundary.after is not None
        kept = [m for m in boundary.after if not isinstance(m, SystemMessage)]
        original = [m for m in boundary.before if not isinstance(m, SystemMessage)]
        assert (
            kept == original[-len(kept) :]
            or _split(kept, original)
            or _shortened(kept, original[-len(kept) :])
        )
        assert any(isinstance(m, UserMessage) for m in kept)
    # Three requests a turn; the agent counts the reads it sees since the request, so a turn whose older
    # reads a split moved into the summary reads once more.
    assert 9 * 3 <= len(mains) <= 9 * 3 + len(compacted)
    for event in compacted:
        assert event.artifact_path is not None
        assert event.after_tokens < event.before_tokens
        header, archived = read_segment(tmp_path / ".vtcode" / "sessions" / session.id / event.artifact_path)
        assert header.trigger == "auto"
        assert len(archived) == event.before_messages


async def _summary_case(tmp_path: Path, summarize: Any) -> tuple[Reader, Agent]:
    agent = Agent(write_files(tmp_path / "ws", 12, 150), summarize=summarize)
    reader, _, _ = await _run(tmp_path, agent, _prompts(6))
    return reader, agent


async def test_an_empty_summary_is_asked_once_more_then_the_local_summary_takes_over(tmp_path: Path) -> None:
    reader, agent = await _summary_case(tmp_path, lambda body: _reply(""))
    assert not reader.of(TurnFailed)
    assert len(reader.of(TurnCompleted)) == 6
    compacted = reader.of(ThreadCompacted)
    assert compacted
    assert {e.mode for e in compacted} == {"fallback"}
    assert all(any("lacked" in note for note in e.notes) for e in compacted)
    summaries = agent.bodies("summary")
    assert len(summaries) == 2 * len(compacted)
    assert "Your previous answer was empty." in summaries[1]["messages"][-1]["content"]
    after = agent.bodies("main")[-1]
    assert any(t.startswith(SUMMARY_PREFIX) and FIRST_PROMPT in t for t in texts(after, "system"))


async def test_a_summary_request_that_overflows_is_retried_in_chunks(tmp_path: Path) -> None:
    count = text_counter()

    def small_window(body: dict[str, Any]) -> Step:
        # A provider whose real window is smaller than the catalog says: 4,000 tokens.
        return OVERFLOW if count(json.dumps(body)) > 4_000 else _reply(GOOD_SUMMARY)

    reader, agent = await _summary_case(tmp_path, small_window)
    assert not reader.of(TurnFailed)
    compacted = reader.of(ThreadCompacted)
    assert compacted
    assert {e.mode for e in compacted} == {"local"}
    assert any("retrying in chunks" in note for e in compacted for note in e.notes)
    answered = [b for b in agent.bodies("summary") if count(json.dumps(b)) <= 4_000]
    assert len(answered) > len(compacted)  # the transcript went in parts
    assert any("summary of the parts before this one" in b["messages"][-1]["content"] for b in answered)


async def test_a_summary_request_that_always_overflows_ends_in_the_local_summary(tmp_path: Path) -> None:
    reader, _ = await _summary_case(tmp_path, lambda body: OVERFLOW)
    assert not reader.of(TurnFailed)
    assert len(reader.of(TurnCompleted)) == 6
    compacted = reader.of(ThreadCompacted)
    assert compacted
    assert {e.mode for e in compacted} == {"fallback"}
    assert all(any("deterministic local summary" in note for note in e.notes) for e in compacted)


def _split(kept: Sequence[Message], original: Sequence[Message]) -> bool:
    """A split newest group: its user message, then its newest batches, verbatim or shortened."""
    request = next(m for m in reversed(original) if isinstance(m, UserMessage))
    rest = original[len(original) - len(kept) + 1 :]
    return kept[0] == request and (list(kept[1:]) == list(rest) or _shortened(kept[1:], rest))


def _shortened(kept: Sequence[Message], original: Sequence[Message]) -> bool:
    """An oversized newest group: the same messages and call ids, contents cut to a preview."""
    return all(
        type(k) is type(o) and k.meta == o.meta and len(k.content) <= len(o.content)
        for k, o in zip(kept, original, strict=True)
    ) and any(k != o for k, o in zip(kept, original, strict=True))


def _reply(text: str) -> Step:
    from vtcode.testing.script import Reply

    return Reply(text=text, chunk_size=256)
