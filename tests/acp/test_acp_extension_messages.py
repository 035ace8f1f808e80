"""The SDK's subprocess transport and the `vtcode acp` agent read each other's extension messages: what
one end writes, as JSON, the other reads back whole, and a message without its optional fields is read
too (the two ends share one struct per message, `protocol.acp_messages`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest
from acp import RequestError

import vtcode.sdk as vt
from vtcode.acp.client_hooks import client_hooks
from vtcode.acp.sdk_extension import SessionSetup, send_event
from vtcode.core.hooks.acp_messages import DeclaredHook, HookAnswer, TurnEndView
from vtcode.core.hooks.outcome import HookResult
from vtcode.protocol.acp_messages import (
    CallCancel,
    DeclaredTool,
    EventParams,
    ModelBatch,
    SessionMeta,
    StreamRef,
    ToolResult,
)
from vtcode.protocol.errors import ProviderError, ProviderErrorKind
from vtcode.protocol.events import TurnFailed
from vtcode.runtime.hooks import TurnEnd
from vtcode.sdk.hooks import Hooks
from vtcode.sdk.testing import Reply, ScriptedModel
from vtcode.sdk.tool_hooks import PreTool
from vtcode.sdk.transport.acp_hooks import HookServer
from vtcode.sdk.transport.acp_subprocess import provider_error, session_setup


class Peer:
    """The client end of the connection as the agent sees it: what it was sent, as JSON on the wire."""

    def __init__(self, answer: Any = None) -> None:
        self.answer = answer
        self.sent: list[tuple[str, bytes]] = []

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Record the request; answer it with the JSON the other end gave."""
        self.sent.append((method, msgspec.json.encode(params)))
        answered: dict[str, Any] = await self.answer(params)
        decoded: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(answered))
        return decoded

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """Record the notification."""
        self.sent.append((method, msgspec.json.encode(params)))


@vt.tool(needs_approval=True)
def lookup(key: str) -> str:
    """Look a key up."""
    return key


def _guard(call: PreTool) -> vt.HookResult:
    return vt.HookResult.block(f"no {call.tool}")


def _ended(end: TurnEnd) -> None:
    raise RuntimeError(f"turn {end.turn} seen")


def test_the_setup_the_sdk_sends_is_the_setup_the_agent_reads(tmp_path: Path) -> None:
    hooks = Hooks(pre_tool=[_guard], turn_end=[_ended])
    options = vt.Options(
        workspace=tmp_path, tools=[lookup], hooks=hooks, model_client=ScriptedModel([Reply(text="hi")])
    )
    server = HookServer(hooks, lambda: "s1")
    wire = msgspec.json.encode(session_setup(options, {"type": "object"}, server))

    read = SessionSetup.read(msgspec.json.decode(wire), Peer())

    (tool,) = read.tools
    assert (tool.spec.name, tool.kind, tool.declared.needs_approval) == ("lookup", "external", True)
    assert tool.spec.parameters == lookup.spec.parameters
    assert read.setup.output_schema == {"type": "object"}
    assert (read.setup.paused_calls, read.setup.pause, read.setup.model) == (True, False, "scripted")
    assert read.hooks is not None
    (deciding,) = read.hooks.deciding()
    assert (deciding.event, deciding.name, deciding.on_failure) == (
        "PreToolUse",
        "pre_tool `_guard`",
        "block",
    )


async def test_a_hook_decision_and_an_observer_failure_cross_back_to_the_agent_whole() -> None:
    hooks = Hooks(pre_tool=[_guard], turn_end=[_ended])
    server = HookServer(hooks, lambda: "s1")
    peer = Peer(server.call)
    agent = client_hooks(server.declared, peer, lambda: "s1")
    (deciding,) = agent.deciding()
    payload = {"tool_name": "exec_command", "tool_input": {"cmd": "ls"}, "tool_use_id": "c1"}

    decided = await deciding.call(payload)
    await agent.turn_ended(
        TurnEnd(turn=3, final_text=None, error=ProviderError(ProviderErrorKind.AUTH, "no"))
    )

    assert decided == HookResult("blocked", "deny", "no exec_command", "")
    (hook_call, end_call) = [msgspec.json.decode(sent) for _, sent in peer.sent]
    assert (hook_call["sessionId"], hook_call["hookId"], hook_call["payload"]) == ("s1", 0, payload)
    ended = msgspec.convert(end_call["payload"], TurnEndView)
    assert (ended.turn, ended.final_text) == (3, None)
    assert isinstance(provider_error(ended.error or {}), ProviderError)


async def test_a_hook_answer_says_only_what_happened() -> None:
    server = HookServer(Hooks(turn_end=[_ended]), lambda: "s1")
    observed = await server.call({"hookId": 0, "payload": {"turn": 1}})
    missing = {"hookId": 5, "payload": {}}

    assert observed == {}
    with pytest.raises(RequestError) as refused:
        await server.call(missing)
    assert refused.value.data == {"hookId": 5, "details": "no such hook, or bad payload"}


async def test_a_turn_failed_carries_the_provider_error_the_sdk_rebuilds() -> None:
    setup = SessionSetup.read({}, Peer())
    failure = ProviderError(ProviderErrorKind.RATE_LIMIT, "slow down", status=429, provider="openai")
    setup.ends.append(TurnEnd(turn=1, error=failure))
    peer = Peer()

    await send_event(peer, "s1", TurnFailed(kind="rate_limit", message="slow down"), setup)

    ((method, sent),) = peer.sent
    params = msgspec.json.decode(sent, type=EventParams)
    rebuilt = provider_error(params.cause or {})
    assert method == "vtcode/event"
    assert rebuilt is not None
    assert (rebuilt.kind, rebuilt.status, rebuilt.provider) == (ProviderErrorKind.RATE_LIMIT, 429, "openai")
    # A child of the version before names no `type` in its cause: still the same provider error.
    older = provider_error({k: v for k, v in msgspec.json.decode(sent)["cause"].items() if k != "type"})
    assert older is not None
    assert (older.kind, older.status, older.provider) == (rebuilt.kind, rebuilt.status, rebuilt.provider)


@pytest.mark.parametrize(
    ("given", "kind", "read"),
    [
        ({}, ModelBatch, ModelBatch()),
        ({}, StreamRef, StreamRef("")),
        ({}, CallCancel, CallCancel("", "")),
        ({}, HookAnswer, HookAnswer()),
        ({}, SessionMeta, SessionMeta()),
        ({"content": "x"}, ToolResult, ToolResult("x", is_error=False)),
        ({"name": "t", "parameters": {}}, DeclaredTool, DeclaredTool(name="t", parameters={})),
        ({"id": 0, "event": "turn_end", "name": "n"}, DeclaredHook, DeclaredHook(0, "turn_end", "n")),
    ],
)
def test_a_message_without_its_optional_fields_is_read(
    given: dict[str, Any], kind: type, read: object
) -> None:
    assert msgspec.convert(given, kind) == read


def test_an_event_without_extras_is_written_as_before() -> None:
    event = TurnFailed(kind="internal", message="x")

    written = msgspec.to_builtins(EventParams("s1", event))

    assert written == {"sessionId": "s1", "event": msgspec.to_builtins(event)}


async def test_a_hook_call_the_agent_withdraws_answers_that_it_was_cancelled() -> None:
    started = asyncio.Event()

    async def slow(call: PreTool) -> None:
        started.set()
        await asyncio.sleep(60)

    server = HookServer(Hooks(pre_tool=[slow]), lambda: "s1")
    payload = {"tool_name": "exec_command", "tool_input": {"cmd": "ls"}, "tool_use_id": "c1"}
    answer = asyncio.create_task(server.call({"callId": "k1", "hookId": 0, "payload": payload}))
    await asyncio.wait_for(started.wait(), 30)

    server.cancel("k1")

    assert await asyncio.wait_for(answer, 30) == {
        "raised": "CancelledError",
        "message": "the hook was cancelled",
    }
