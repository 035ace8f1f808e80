"""`Session.compact()` compacts between turns and returns how it went: the next model request carries
the summary instead of the old turns, on both transports."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

import vtcode.sdk as vt
from vtcode.core.compaction.summary import SECTIONS
from vtcode.protocol.errors import UsageError
from vtcode.protocol.messages import AssistantMessage, Message, SystemMessage
from vtcode.sdk.testing import Reply, ScriptedModel
from vtcode.sdk.transport import TransportName

# A summary the runtime accepts as the model's (every section it asks for), with a mark to look for.
SUMMARY = "\n".join(f"## {name}\nsummary-mark-42" for name in SECTIONS)
# A small budget, so three long turns outgrow the verbatim tail the compaction keeps.
BUDGET = ("context.max_context_tokens=12000",)


def _long(n: int) -> Reply:
    return Reply(text=f"answer-{n} " + "word " * 1500)


def _compactable() -> ScriptedModel:
    """Three long answers (more than the budget's verbatim tail), then the summary, then "after"."""
    return ScriptedModel([_long(1), _long(2), _long(3), Reply(text=SUMMARY), Reply(text="after")])


async def _three_long_turns(s: vt.Session) -> None:
    for n in range(3):
        await s.run(f"question {n}")


def _options(tmp_path: Path, model: ScriptedModel, transport: TransportName) -> vt.Options:
    return vt.Options(workspace=tmp_path, model_client=model, transport=transport, config=BUDGET)


def _texts(messages: Sequence[Message], kind: type[Message]) -> str:
    return "\n".join(str(m.content) for m in messages if isinstance(m, kind))


async def test_compact_puts_the_summary_in_place_of_the_old_turns_in_the_next_request(
    tmp_path: Path, transport: TransportName
) -> None:
    model = _compactable()
    async with await vt.Session.open(_options(tmp_path, model, transport)) as s:
        await _three_long_turns(s)
        compacted = await s.compact()
        turn = await s.start("go on")
        events = [event async for event in turn.events()]
    assert isinstance(compacted, vt.ThreadCompacted)
    assert compacted.trigger == "manual"
    assert compacted.after_messages < compacted.before_messages
    # The outcome still opens the next turn's stream, as `vtcode exec --json` prints it.
    assert compacted in events
    summary_request, after = model.requests[3], model.requests[4]
    assert "answer-1" in str(summary_request.messages)
    assert "summary-mark-42" in _texts(after.messages, SystemMessage)
    said = _texts(after.messages, AssistantMessage)
    assert "answer-1" not in said
    assert "answer-2" not in said
    assert "answer-3" in said  # the verbatim tail
    assert len(model.requests) == 5


async def test_compact_with_nothing_to_compact_returns_none_and_keeps_the_history(
    tmp_path: Path, transport: TransportName
) -> None:
    model = ScriptedModel([Reply(text="short answer"), Reply(text="again")])
    async with await vt.Session.open(_options(tmp_path, model, transport)) as s:
        await s.run("hello")
        assert await s.compact() is None
        await s.run("again")
    # No summary was asked for, and the next request still carries the first turn.
    assert len(model.requests) == 2
    assert "short answer" in _texts(model.requests[1].messages, AssistantMessage)


async def test_compact_while_a_turn_runs_is_a_usage_error(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(text="done")])
    async with await vt.Session.open(_options(tmp_path, model, "in-process")) as s:
        turn = await s.start("hello")
        with pytest.raises(UsageError, match="a turn is running"):
            await s.compact()
        assert (await turn.result()).status == "completed"
    assert len(model.requests) == 1


def test_sync_session_compacts_between_turns(tmp_path: Path) -> None:
    model = _compactable()
    with vt.SyncSession.open(_options(tmp_path, model, "in-process")) as s:
        for n in range(3):
            s.run(f"question {n}")
        compacted = s.compact()
        assert s.run("go on").final_text == "after"
    assert isinstance(compacted, vt.ThreadCompacted)
    assert "summary-mark-42" in _texts(model.requests[4].messages, SystemMessage)


async def test_a_failed_compaction_raises_and_the_next_request_keeps_the_old_turns(
    tmp_path: Path, transport: TransportName
) -> None:
    model = _compactable()
    async with await vt.Session.open(_options(tmp_path, model, transport)) as s:
        await _three_long_turns(s)
        # The compacted history's archive cannot be written: a file is where its folder goes.
        (Path(os.environ["VTCODE_HOME"]) / "sessions" / s.id / "archive").write_text("in the way")
        with pytest.raises(vt.CompactionError, match=r"^compaction failed"):
            await s.compact()
        await s.run("go on")
    after = model.requests[-1]
    assert "summary-mark-42" not in _texts(after.messages, SystemMessage)
    assert "answer-1" in _texts(after.messages, AssistantMessage)
