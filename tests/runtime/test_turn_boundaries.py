"""The turn loop's extension points: before a request (pressure, history replacement), after a tool batch."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from tests.runtime.session_helpers import Reader, conversation, options
from vtcode.protocol.events import IntentApplied, ItemStarted, TurnCompleted
from vtcode.protocol.messages import Message, MessageMeta, UserMessage
from vtcode.protocol.ops import UserInput
from vtcode.runtime.hooks import AfterToolBatch, BeforeRequest, HistoryReplacement
from vtcode.runtime.session import Session
from vtcode.store.session import SessionStore
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


def _list_call(call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("list_files", json.dumps({}), id=call_id),), input_tokens=1234)


async def test_before_request_sees_the_pressure_and_may_replace_the_history(tmp_path: Path) -> None:
    seen: list[BeforeRequest] = []

    async def compact_everything(view: BeforeRequest) -> HistoryReplacement | None:
        seen.append(view)
        if view.request_no == 2:
            summary = UserMessage("summary: listed the files", meta=MessageMeta(paths=(".",)))
            return HistoryReplacement(messages=[summary], summary="listed the files")
        return None

    with server_for("chat", [_list_call("c1"), Reply(text="done")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        session.hooks.before_request.append(compact_everything)
        reader = Reader(session)
        await session.submit(UserInput("list"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    first, second = seen
    assert first.pressure.context_window == 1_047_576  # gpt-4.1's window from the catalog
    assert first.pressure.last_prompt_tokens is None
    assert first.pressure.estimated_tokens > 100
    # The figure of the second request: the provider's count for the first one, raised to the estimate.
    assert second.pressure.last_prompt_tokens == 1234
    assert second.pressure.tokens == max(1234, second.pressure.estimated_tokens)
    assert [type(m).__name__ for m in conversation(second.messages)] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResultMessage",
    ]
    # The second request carried the replacement, and so does the store.
    assert next(m["content"] for m in bodies[1]["messages"] if m["role"] != "system") == (
        "summary: listed the files"
    )
    stored = SessionStore(tmp_path / ".vtcode", lambda: 0.0, lambda: "x").open(session.id).load()
    assert [type(m).__name__ for m in stored.messages] == ["UserMessage", "AssistantMessage"]
    assert stored.messages[0].meta.paths == (".",)


async def test_after_tool_batch_may_add_a_message_the_next_request_carries(tmp_path: Path) -> None:
    async def remind(batch: AfterToolBatch) -> Sequence[Message]:
        names = ",".join(r.name for r in batch.results)
        return [UserMessage(f"reminder after {names}", meta=MessageMeta(intent_id="i-1", turn=batch.turn))]

    with server_for("chat", [_list_call("c1"), Reply(text="done")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        session.hooks.after_tool_batch.append(remind)
        reader = Reader(session)
        await session.submit(UserInput("list"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    roles = [(m["role"], m.get("content")) for m in bodies[1]["messages"] if m["role"] != "system"]
    assert roles[-1] == ("user", "reminder after list_files")
    assert roles[-2][0] == "tool"
    # A tagged message is acknowledged only after it was checkpointed: the event follows the batch.
    applied = reader.of(IntentApplied)
    assert [e.intent_id for e in applied] == ["i-1"]
    assert reader.events.index(applied[0]) > reader.events.index(reader.of(ItemStarted)[0])


async def test_steer_input_is_delivered_at_the_next_tool_batch_boundary(tmp_path: Path) -> None:
    slow_call = Reply(
        text="thinking " * 20,
        chunk_size=4,
        delay_between=0.03,
        tool_calls=(ScriptToolCall("list_files", "{}", id="c1"),),
    )
    with server_for("chat", [slow_call, Reply(text="done")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("work"))
        await reader.wait_for(ItemStarted)
        await session.submit(UserInput("also check the tests", mode="steer", intent_id="steer-1"))
        done = await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    # Same turn, second request: after the tool result, before the model's next reply.
    assert done.turn_id == "turn_1"
    last = bodies[1]["messages"][-1]
    assert (last["role"], last["content"]) == ("user", "also check the tests")
    assert [e.intent_id for e in reader.of(IntentApplied)] == ["steer-1"]
