"""Provider-native compaction on the Anthropic wire: the compaction edit, its pause, and the fallbacks.

A session of three large turns is compacted with `/compact`; the loopback server answers the request
that carries the edit with a compaction pause (C-10), an ordinary answer (the edit did not fire), or an
HTTP error, and every path ends in a usable history and a next turn that runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from tests.runtime.compaction_agent import GOOD_SUMMARY, wait_turn_end
from tests.runtime.session_helpers import Reader, conversation, options
from vtcode.core.compaction.envelope import ENVELOPE_HEADER
from vtcode.core.compaction.retention import RETAINED_HEADER
from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.protocol.events import ThreadCompacted, TurnCompleted, TurnFailed
from vtcode.protocol.messages import AssistantMessage, Message, SystemMessage, UserMessage
from vtcode.protocol.ops import Compact, UserInput
from vtcode.runtime.session import Session
from vtcode.testing.anthropic_server import AnthropicServer
from vtcode.testing.script import HttpError, Reply, Step

PROVIDER_SUMMARY = "provider compaction summary"


def _big(label: str) -> str:
    return f"{label}: " + " ".join(f"{label.lower()}{i} detail" for i in range(3_600))


# About 14,000 tokens each: together over the 50,000-token trigger of the edit.
PROMPTS = [_big("Alpha"), _big("Bravo"), _big("Charlie")]


Action = str | UserInput | Compact


async def _drive(
    tmp_path: Path, script: list[Step], actions: Sequence[Action], *, max_retries: int = 2
) -> tuple[Reader, list[tuple[dict[str, str], dict[str, Any]]], Session]:
    """Run `actions` (turns and `/compact`s) in an Anthropic session against `script`."""
    with AnthropicServer(script) as server:
        base = options(tmp_path / "ws", tmp_path, server, wire="anthropic")
        network = msgspec.structs.replace(base.settings.network, max_retries=max_retries)
        opts = dataclasses.replace(base, settings=msgspec.structs.replace(base.settings, network=network))
        (tmp_path / "ws").mkdir()
        session = await Session.open(opts)
        reader = Reader(session)
        for action in actions:
            if isinstance(action, Compact):
                seen = len(reader.events)
                await session.submit(action)
                await reader.wait_for(ThreadCompacted, after=seen)
                continue
            ended = len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed))
            await session.submit(action if isinstance(action, UserInput) else UserInput(action))
            await wait_turn_end(reader, ended)
        await reader.close()
        requests = [(r.headers, r.json()) for r in server.requests]
        assert server.remaining == 0
    assert not reader.of(TurnFailed)
    return reader, requests, session


async def _compacted_session(
    tmp_path: Path,
    compact_reply: list[Step],
    *,
    prompts: Sequence[str | UserInput] = PROMPTS,
    max_retries: int = 2,
) -> tuple[Reader, list[tuple[dict[str, str], dict[str, Any]]], Session]:
    """`prompts` as turns, `/compact` answered by `compact_reply`, then one more turn."""
    script: list[Step] = [Reply(text=f"ok {n}") for n in range(1, len(prompts) + 1)]
    script += [*compact_reply, Reply(text="ok after")]
    actions: list[Action] = [*prompts, Compact(), "go on"]
    return await _drive(tmp_path, script, actions, max_retries=max_retries)


def _history(session: Session) -> list[Message]:
    """The conversation without the environment context and the memory envelope."""
    return [m for m in conversation(session.messages) if not m.content.startswith(ENVELOPE_HEADER)]


def _texts(body: dict[str, Any]) -> list[str]:
    return [
        block["text"]
        for message in body["messages"]
        for block in message["content"]
        if block.get("type") == "text"
    ]


async def test_a_compaction_pause_opens_the_history_like_a_local_summary(tmp_path: Path) -> None:
    reader, requests, session = await _compacted_session(tmp_path, [Reply(compaction=PROVIDER_SUMMARY)])
    (event,) = reader.of(ThreadCompacted)
    assert (event.trigger, event.mode) == ("manual", "native")
    headers, compact = requests[3]
    assert compact["context_management"]["edits"] == [
        {
            "type": "compact_20260112",
            "trigger": {"type": "input_tokens", "value": 50_000},
            "pause_after_compaction": True,
        }
    ]
    assert "compact-2026-01-12" in headers["anthropic-beta"]
    # The whole history went with the edit, and the session's own tools (the prompt cache applies).
    assert [t for t in _texts(compact) if t in PROMPTS] == PROMPTS
    assert compact["tools"] == requests[2][1]["tools"]
    # C-10: [S "Previous conversation summary:\n<text>", retained user words, the verbatim tail].
    history = _history(session)
    assert history[0] == SystemMessage(SUMMARY_PREFIX + PROVIDER_SUMMARY)
    assert history[1].content.startswith(RETAINED_HEADER)
    assert "Alpha: alpha0 detail" in history[1].content
    assert [m.content for m in history[2:]] == [PROMPTS[2], "ok 3", "go on", "ok after"]
    assert isinstance(history[2], UserMessage)
    assert isinstance(history[3], AssistantMessage)
    # The next request holds the summary; the edit is not sent with ordinary turns.
    _, after = requests[4]
    assert SUMMARY_PREFIX + PROVIDER_SUMMARY in _texts(after)
    assert "context_management" not in after


async def test_an_edit_that_did_not_fire_leaves_it_to_the_local_summary(tmp_path: Path) -> None:
    steps: list[Step] = [Reply(text="Sure, continuing. " * 50), Reply(text=GOOD_SUMMARY)]
    reader, requests, session = await _compacted_session(tmp_path, steps)
    (event,) = reader.of(ThreadCompacted)
    assert event.mode == "local"
    assert any("the compaction edit did not fire" in note for note in event.notes)
    assert "context_management" in requests[3][1]
    summary_request = requests[4][1]
    assert "context_management" not in summary_request
    assert "tools" not in summary_request
    assert "<transcript>" in _texts(summary_request)[-1]
    assert _history(session)[0].content.startswith(SUMMARY_PREFIX + "## ")


async def test_an_empty_compaction_is_not_used(tmp_path: Path) -> None:
    steps: list[Step] = [Reply(compaction="  "), Reply(text=GOOD_SUMMARY)]
    reader, _, _ = await _compacted_session(tmp_path, steps)
    (event,) = reader.of(ThreadCompacted)
    assert event.mode == "local"
    assert any("compaction summary was empty" in note for note in event.notes)


async def test_a_refused_compaction_request_falls_back_and_is_not_asked_again(tmp_path: Path) -> None:
    script: list[Step] = [Reply(text=f"ok {n}") for n in range(1, 4)]
    script += [HttpError(400, "context_management: not supported on this model"), Reply(text=GOOD_SUMMARY)]
    script += [Reply(text="ok 4"), Reply(text=GOOD_SUMMARY)]
    actions: list[Action] = [*PROMPTS, Compact(), _big("Delta"), Compact()]
    reader, requests, _ = await _drive(tmp_path, script, actions)
    first, second = reader.of(ThreadCompacted)
    assert (first.mode, second.mode) == ("local", "local")
    assert any("provider compaction failed" in note for note in first.notes)
    assert "<transcript>" in _texts(requests[4][1])[-1]
    # The model refused the edit once: the next compaction goes straight to the local summary.
    assert [("context_management" in body) for _, body in requests[3:]] == [True, False, False, False]
    assert "<transcript>" in _texts(requests[6][1])[-1]


async def test_a_server_error_on_the_compaction_request_falls_back_without_aborting(tmp_path: Path) -> None:
    steps: list[Step] = [HttpError(500, "overloaded"), Reply(text=GOOD_SUMMARY)]
    reader, requests, _ = await _compacted_session(tmp_path, steps, max_retries=0)
    (event,) = reader.of(ThreadCompacted)
    assert event.mode == "local"
    assert any("provider compaction failed" in note and "overloaded" in note for note in event.notes)
    assert "<transcript>" in _texts(requests[4][1])[-1]


async def test_a_history_below_the_trigger_is_summarized_locally_without_asking(tmp_path: Path) -> None:
    small = [p[:45_000] for p in PROMPTS]  # about 10,000 tokens each
    reader, requests, _ = await _compacted_session(tmp_path, [Reply(text=GOOD_SUMMARY)], prompts=small)
    (event,) = reader.of(ThreadCompacted)
    assert event.mode == "local"
    assert not any("context_management" in body for _, body in requests)


async def test_steering_intent_ids_in_the_tail_survive_a_provider_compaction(tmp_path: Path) -> None:
    steers = [UserInput("same follow-up", intent_id=f"intent-{n}") for n in (1, 2)]
    reader, _, session = await _compacted_session(
        tmp_path, [Reply(compaction=PROVIDER_SUMMARY)], prompts=[*PROMPTS, *steers]
    )
    assert reader.of(ThreadCompacted)[0].mode == "native"
    history = _history(session)
    assert history[0].content == SUMMARY_PREFIX + PROVIDER_SUMMARY
    tagged = [m.meta.intent_id for m in history if m.content == "same follow-up"]
    assert tagged == ["intent-1", "intent-2"]
