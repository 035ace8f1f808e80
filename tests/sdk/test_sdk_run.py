"""`Session.run()` against the real wire servers: what the model is offered and what it reads back."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options, tool_results
from tests.sdk.transport_params import in_process_each_and_one_subprocess
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import Wire, server_for


@vt.tool
def ticket(key: str, with_body: bool = False) -> dict[str, str]:
    """Return an issue's title.

    Args:
        key: the issue key, e.g. ABC-12
    """
    return {"key": key, "title": f"title of {key}", "body": "long" if with_body else ""}


@vt.tool
async def explode(reason: str) -> str:
    """Always fails."""
    raise RuntimeError(f"boom: {reason}")


@vt.tool
def refuse(reason: str) -> str:
    """Fails with a message for the model."""
    raise vt.ToolError(f"cannot do that: {reason}")


def _call(name: str, arguments: dict[str, object], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


def _offered(body: dict[str, object], wire: Wire) -> dict[str, object]:
    tools = body["tools"]
    assert isinstance(tools, list)
    if wire == "anthropic":
        return {t["name"]: t["input_schema"] for t in tools}
    return {t["function"]["name"]: t["function"]["parameters"] for t in tools}


@in_process_each_and_one_subprocess("wire", ["chat", "anthropic"])
async def test_run_offers_a_function_tool_and_its_result_reaches_the_next_request(
    tmp_path: Path, wire: Wire, transport: TransportName
) -> None:
    script = [_call("ticket", {"key": "ABC-12"}, "c1"), Reply(text="It is title of ABC-12.")]
    with server_for(wire, script) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, wire=wire, tools=[ticket], transport=transport)
        ) as s:
            result = await s.run("what is ABC-12?")
        first, second = (r.json() for r in server.requests)
    assert _offered(first, wire)["ticket"] == ticket.spec.parameters
    assert ticket.spec.parameters["properties"]["key"]["description"] == "the issue key, e.g. ABC-12"
    assert tool_results(second, wire) == ['{"key":"ABC-12","title":"title of ABC-12","body":""}']
    assert (result.status, result.final_text, result.session_id) == (
        "completed",
        "It is title of ABC-12.",
        s.id,
    )
    assert result.usage.input_tokens == 20
    assert [type(i).__name__ for i in result.items] == ["ToolCallItem", "AgentMessageItem"]


@in_process_each_and_one_subprocess("wire", ["chat", "anthropic"])
async def test_a_tool_that_raises_gives_the_model_an_error_result_and_the_turn_goes_on(
    tmp_path: Path, wire: Wire, transport: TransportName
) -> None:
    script = [
        _call("explode", {"reason": "disk"}, "c1"),
        _call("refuse", {"reason": "policy"}, "c2"),
        _call("ticket", {"key": 12}, "c3"),
        Reply(text="giving up"),
    ]
    tools = [explode, refuse, ticket]
    with server_for(wire, script) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, wire=wire, tools=tools, transport=transport)
        ) as s:
            result = await s.run("try")
        bodies = [r.json() for r in server.requests]
    assert len(bodies) == 4
    assert tool_results(bodies[1], wire)[-1].endswith("explode failed: RuntimeError: boom: disk")
    # `ToolError` text reaches the model as written.
    assert tool_results(bodies[2], wire)[-1].endswith("cannot do that: policy")
    # Arguments of the wrong type never reach the function.
    assert (
        "invalid arguments for ticket: Expected `str`, got `int` - at `$.key`"
        in tool_results(bodies[3], wire)[-1]
    )
    assert (result.status, result.final_text) == ("completed", "giving up")


async def test_a_session_resumed_by_id_continues_its_history(
    tmp_path: Path, transport: TransportName
) -> None:
    with server_for("chat", [Reply(text="first answer"), Reply(text="second answer")]) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            await s.run("remember the word kumquat")
        async with await vt.Session.resume(s.id, sdk_options(tmp_path, server, transport=transport)) as again:
            result = await again.run("which word?")
        sent = json.dumps(server.requests[1].json()["messages"])
    assert again.id == s.id
    assert "remember the word kumquat" in sent
    assert "first answer" in sent
    assert result.final_text == "second answer"


async def test_opening_a_session_in_a_missing_workspace_is_a_config_error(
    tmp_path: Path, transport: TransportName
) -> None:
    with server_for("chat", []) as server, pytest.raises(vt.ConfigError, match="is not a directory"):
        await vt.Session.open(sdk_options(tmp_path / "nowhere", server, transport=transport))


async def test_a_huge_result_reaches_the_model_as_a_preview_with_the_whole_text_spooled(
    tmp_path: Path,
    transport: TransportName,
) -> None:
    @vt.tool(read_only=True)
    def dump() -> str:
        """Return a lot of text."""
        return "".join(f"line {i}\n" for i in range(2_000_000))  # about 20 MB

    with server_for("chat", [_call("dump", {}, "c1"), Reply(text="ok")]) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, tools=[dump], transport=transport)
        ) as s:
            result = await s.run("dump")
        sent = tool_results(server.requests[1].json(), "chat")[0]
        request_bytes = len(server.requests[1].body)
    whole = result.items[0]
    assert isinstance(whole, vt.ToolCallItem)
    assert whole.result is not None
    assert whole.result.endswith("line 1999999\n")
    assert request_bytes < 200_000
    assert sent.startswith("line 0\n")
    spooled = re.search(r"the whole output \((\d+) bytes\) is in (\S+);", sent)
    assert spooled is not None
    assert (tmp_path / spooled.group(2)).read_text() == whole.result


async def test_a_tool_over_its_timeout_gives_the_model_a_timeout_result(
    tmp_path: Path, transport: TransportName
) -> None:
    stopped = threading.Event()

    @vt.tool(timeout=0.2)
    def stuck(ctx: vt.ToolContext) -> str:
        """Never finishes on its own."""
        if ctx.cancelled.wait(60):
            stopped.set()
        return "late"

    @vt.tool(timeout=0.2)
    async def stuck_async() -> str:
        """Never finishes on its own."""
        await asyncio.sleep(60)
        return "late"

    calls = [_call("stuck", {}, "c1"), _call("stuck_async", {}, "c2"), Reply(text="both timed out")]
    with server_for("chat", calls) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, tools=[stuck, stuck_async], transport=transport)
        ) as s:
            result = await s.run("go")
        bodies = [r.json() for r in server.requests]
    assert tool_results(bodies[1], "chat")[-1].endswith("stuck timed out after 0.2 s")
    assert tool_results(bodies[2], "chat")[-1].endswith("stuck_async timed out after 0.2 s")
    assert await asyncio.to_thread(stopped.wait, 30)
    assert result.final_text == "both timed out"
