"""MCP servers in a session, against the loopback model server: tools called, results back, failures read."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from tests.mcp.helpers import call, demo_http, demo_stdio, mcp_options, tool_names, tool_results
from tests.runtime.session_helpers import Reader
from vtcode.config.schema import McpServerSettings, McpSettings
from vtcode.protocol.events import (
    ApprovalRequested,
    ItemCompleted,
    Notice,
    ToolCallItem,
    ToolsChanged,
    TurnCompleted,
)
from vtcode.protocol.ops import ApprovalAnswer, UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


async def _until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(20):
        while not condition():  # noqa: ASYNC110 - the state lives in another process
            await asyncio.sleep(0.05)


async def _one_turn(
    tmp_path: Path, servers: dict[str, McpServerSettings], script: list[Reply], **kwargs: Any
) -> tuple[Reader, list[dict[str, Any]]]:
    """Run one turn of `script` with `servers`; the events and the request bodies the model got."""
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    with server_for("chat", script) as server:
        session = await Session.open(mcp_options(ws, tmp_path, server, servers, **kwargs))
        reader = Reader(session)
        await session.submit(UserInput("use the tools"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    return reader, bodies


async def test_the_model_calls_a_stdio_server_tool_and_the_result_reaches_the_next_request(
    tmp_path: Path,
) -> None:
    script = [
        Reply(tool_calls=(call("mcp__demo__echo", {"text": "pong", "times": 2}, "c1"),)),
        Reply(text="ok"),
    ]
    reader, bodies = await _one_turn(tmp_path, {"demo": demo_stdio()}, script)
    assert "mcp__demo__echo" in tool_names(bodies[0])
    assert tool_results(bodies[1]) == {"c1": "pong pong"}
    done = [e.item for e in reader.of(ItemCompleted) if isinstance(e.item, ToolCallItem)]
    assert done[0].status == "completed"
    assert done[0].result == "pong pong"


async def test_an_optional_argument_sent_as_null_is_left_out(tmp_path: Path) -> None:
    # Strict schemas make every property required; a null for an optional one means "not given".
    script = [
        Reply(tool_calls=(call("mcp__demo__echo", {"text": "once", "times": None}, "c1"),)),
        Reply(text="ok"),
    ]
    _, bodies = await _one_turn(tmp_path, {"demo": demo_stdio()}, script)
    assert tool_results(bodies[1]) == {"c1": "once"}


async def test_a_streamable_http_server_works_the_same(tmp_path: Path) -> None:
    script = [Reply(tool_calls=(call("mcp__web__echo", {"text": "over http"}, "c1"),)), Reply(text="ok")]
    with demo_http() as url:
        _, bodies = await _one_turn(tmp_path, {"web": McpServerSettings(url=url)}, script)
    assert tool_results(bodies[1]) == {"c1": "over http"}


async def test_a_big_output_is_spooled_with_a_bounded_preview(tmp_path: Path) -> None:
    script = [Reply(tool_calls=(call("mcp__demo__big", {"lines": 20000}, "c1"),)), Reply(text="ok")]
    _, bodies = await _one_turn(tmp_path, {"demo": demo_stdio()}, script)
    seen = tool_results(bodies[1])["c1"]
    assert len(seen.encode()) < 45_000
    assert seen.startswith("line 000001 of the big output")
    assert "line 020000 of the big output" in seen
    spool = next((tmp_path / "ws" / ".vtcode" / "context" / "tool_outputs").glob("mcp-*.log"))
    assert spool.relative_to(tmp_path / "ws").as_posix() in seen
    assert spool.read_text().count("\n") == 19_999


async def test_failing_and_image_results_reach_the_model(tmp_path: Path) -> None:
    script = [
        Reply(
            tool_calls=(
                call("mcp__demo__fail", {"reason": "no disk"}, "c1"),
                call("mcp__demo__pixel", {}, "c2"),
            )
        ),
        Reply(text="ok"),
    ]
    reader, bodies = await _one_turn(tmp_path, {"demo": demo_stdio()}, script)
    results = tool_results(bodies[1])
    assert "fail" in results["c1"]
    assert results["c2"] == "[image: image/png, 70 bytes]"
    # gpt-4.1 accepts images: the picture follows the tool results as a user message.
    follow_up = bodies[1]["messages"][-1]
    assert follow_up["role"] == "user"
    assert follow_up["content"][0] == {"type": "text", "text": "Images returned by tool call c2:"}
    assert follow_up["content"][1]["image_url"]["url"].startswith("data:image/png;base64,iVBORw0KGgo")
    statuses = [e.item.status for e in reader.of(ItemCompleted) if isinstance(e.item, ToolCallItem)]
    assert statuses == ["failed", "completed"]


async def test_a_server_that_fails_to_start_is_a_notice_naming_it_and_its_stderr(tmp_path: Path) -> None:
    broken = McpServerSettings(command="sh", args=("-c", "echo cannot find the database >&2; exit 3"))
    script = [Reply(tool_calls=(call("mcp__demo__echo", {"text": "still here"}, "c1"),)), Reply(text="ok")]
    reader, bodies = await _one_turn(tmp_path, {"broken": broken, "demo": demo_stdio()}, script)
    warnings = [n.message for n in reader.of(Notice) if n.level == "warning"]
    assert any("'broken'" in w and "cannot find the database" in w for w in warnings), warnings
    assert tool_results(bodies[1]) == {"c1": "still here"}
    assert not any(name.startswith("mcp__broken__") for name in tool_names(bodies[0]))


async def test_a_server_hanging_at_start_does_not_hold_the_first_request_past_the_grace(
    tmp_path: Path,
) -> None:
    # Its start-up timeout is far longer than the test's own limit: the turn can only complete
    # because the first request stopped waiting after the grace period.
    pid_file = tmp_path / "hanging.pid"
    hanging = demo_stdio("--hang", "--pid-file", str(pid_file), startup_timeout_seconds=600)
    script = [Reply(text="answered without it")]
    ws = tmp_path / "ws"
    ws.mkdir()
    with server_for("chat", script) as server:
        session = await Session.open(mcp_options(ws, tmp_path, server, {"slow": hanging}, grace=0.5))
        reader = Reader(session)
        await session.submit(UserInput("hello"))
        await reader.wait_for(TurnCompleted)
        states = [c.state for c in session._mcp.manager.connections] if session._mcp else []
        await _until(pid_file.exists)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert states == ["starting"]
    assert not any(name.startswith("mcp__") for name in tool_names(bodies[0]))
    # Closing the session ended the server that never finished starting.
    assert not _alive(int(pid_file.read_text()))


async def test_a_server_killed_mid_session_is_restarted_on_its_next_call(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = [
        Reply(tool_calls=(call("mcp__demo__pid", {}, "c1"),)),
        Reply(text="got the pid"),
    ]
    with server_for("chat", script) as server:
        session = await Session.open(mcp_options(ws, tmp_path, server, {"demo": demo_stdio()}))
        reader = Reader(session)
        await session.submit(UserInput("pid please"))
        await reader.wait_for(TurnCompleted)
        first_pid = int(tool_results(server.requests[1].json())["c1"])
        os.kill(first_pid, signal.SIGKILL)
        await _until(lambda: not _alive(first_pid))
        server.add(
            Reply(tool_calls=(call("mcp__demo__echo", {"text": "a"}, "c2"),)),
            Reply(tool_calls=(call("mcp__demo__pid", {}, "c3"),)),
            Reply(text="done"),
        )
        await session.submit(UserInput("again"))
        await reader.wait_for(TurnCompleted, after=len(reader.events))
        await reader.close()
        bodies = [r.json() for r in server.requests]
    # Whether the death shows in the first call after it ("stopped during the call; started again on
    # the next call") or was noticed before it (then that call restarts the server) is a race.
    after_kill = tool_results(bodies[3])["c2"]
    assert after_kill == "a" or "started again on the next call" in after_kill
    second_pid = int(tool_results(bodies[4])["c3"])
    assert second_pid != first_pid
    # Shutdown closed the restarted server too.
    assert not _alive(second_pid)


async def test_shutdown_ends_every_stdio_server_process(tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    script = [Reply(tool_calls=(call("mcp__demo__echo", {"text": "x"}, "c1"),)), Reply(text="ok")]
    await _one_turn(tmp_path, {"demo": demo_stdio("--pid-file", str(pid_file))}, script)
    assert not _alive(int(pid_file.read_text()))


async def test_a_deny_rule_blocks_every_tool_of_a_server_with_a_reason_the_model_gets(tmp_path: Path) -> None:
    script = [
        Reply(tool_calls=(call("mcp__demo__echo", {"text": "x"}, "c1"), call("mcp__demo__pid", {}, "c2"))),
        Reply(text="ok"),
    ]
    _, bodies = await _one_turn(tmp_path, {"demo": demo_stdio()}, script, deny=("mcp__demo__*",))
    results = tool_results(bodies[1])
    for content in results.values():
        assert "deny rule `mcp__demo__*`" in content


async def test_auto_edit_needs_an_allow_rule_in_a_headless_run(tmp_path: Path) -> None:
    script = [
        Reply(
            tool_calls=(call("mcp__demo__echo", {"text": "allowed"}, "c1"), call("mcp__demo__pid", {}, "c2"))
        ),
        Reply(text="ok"),
    ]
    _, bodies = await _one_turn(
        tmp_path, {"demo": demo_stdio()}, script, approval="auto-edit", allow=("mcp__demo__echo",)
    )
    results = tool_results(bodies[1])
    assert results["c1"] == "allowed"
    assert "not allowed in auto-edit mode" in results["c2"]
    assert "mcp__demo__pid" in results["c2"]


async def test_ask_mode_asks_and_allow_for_the_session_covers_later_calls(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = [
        Reply(tool_calls=(call("mcp__demo__echo", {"text": "one"}, "c1"),)),
        Reply(tool_calls=(call("mcp__demo__echo", {"text": "two"}, "c2"),)),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        opts: SessionOptions = mcp_options(
            ws, tmp_path, server, {"demo": demo_stdio()}, approval="ask", headless=False
        )
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("go"))
        asked = await reader.wait_for(ApprovalRequested)
        assert asked.kind == "external"
        assert asked.tool == "mcp__demo__echo"
        await session.submit(ApprovalAnswer(request_id=asked.request_id, decision="allow_tool"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert len(reader.of(ApprovalRequested)) == 1
    assert tool_results(bodies[2]) == {"c1": "one", "c2": "two"}


async def test_a_changed_tool_list_joins_at_the_next_request_with_a_notice(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = [Reply(tool_calls=(call("mcp__demo__unlock", {}, "c1"),)), Reply(text="unlocked")]
    with server_for("chat", script) as server:
        session = await Session.open(mcp_options(ws, tmp_path, server, {"demo": demo_stdio()}))
        reader = Reader(session)
        await session.submit(UserInput("unlock"))
        await reader.wait_for(TurnCompleted)
        assert session._mcp is not None
        connection = session._mcp.manager.connections[0]
        await _until(lambda: connection.generation == 2)
        server.add(Reply(tool_calls=(call("mcp__demo__secret", {}, "c2"),)), Reply(text="done"))
        await session.submit(UserInput("now the secret"))
        await reader.wait_for(TurnCompleted, after=len(reader.events))
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert "mcp__demo__secret" not in tool_names(bodies[0])
    assert "mcp__demo__secret" in tool_names(bodies[2])
    assert tool_results(bodies[3])["c2"] == "the secret"
    # The first announcement is the server joining; the second its new tool (at whichever request
    # boundary came first after the server's notification).
    announced = reader.of(ToolsChanged)
    assert len(announced) == 2
    assert (announced[1].source, announced[1].added, announced[1].removed) == (
        "MCP server 'demo'",
        ("mcp__demo__secret",),
        (),
    )


async def test_a_call_past_the_tool_timeout_is_an_error_result_and_the_server_stays_usable(
    tmp_path: Path,
) -> None:
    script = [
        Reply(tool_calls=(call("mcp__demo__sleepy", {"seconds": 600}, "c1"),)),
        Reply(tool_calls=(call("mcp__demo__echo", {"text": "still up"}, "c2"),)),
        Reply(text="ok"),
    ]
    _, bodies = await _one_turn(tmp_path, {"demo": demo_stdio(tool_timeout_seconds=0.5)}, script)
    timed_out = tool_results(bodies[1])["c1"]
    assert "did not answer within 0.5 s" in timed_out
    assert "tool_timeout_seconds" in timed_out
    assert tool_results(bodies[2])["c2"] == "still up"


async def test_read_only_hints_count_as_reads_only_when_the_user_trusts_them(tmp_path: Path) -> None:
    script = [
        Reply(tool_calls=(call("mcp__demo__echo", {"text": "read"}, "c1"), call("mcp__demo__pid", {}, "c2"))),
        Reply(text="ok"),
    ]
    ws = tmp_path / "ws"
    ws.mkdir()
    with server_for("chat", script) as server:
        opts = mcp_options(ws, tmp_path, server, {"demo": demo_stdio()}, approval="read-only")
        settings = msgspec.structs.replace(
            opts.settings, mcp=McpSettings(startup_grace_seconds=20, trust_read_only_hints=True)
        )
        session = await Session.open(dataclasses.replace(opts, settings=settings))
        reader = Reader(session)
        await session.submit(UserInput("go"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        trusted = tool_results(server.requests[1].json())
    assert trusted["c1"] == "read"
    assert "read-only mode" in trusted["c2"]
    script = [Reply(tool_calls=(call("mcp__demo__echo", {"text": "read"}, "c1"),)), Reply(text="ok")]
    _, bodies = await _one_turn(tmp_path, {"demo": demo_stdio()}, script, approval="read-only")
    assert "read-only mode" in tool_results(bodies[1])["c1"]


async def test_a_bearer_token_from_the_environment_reaches_an_http_server(tmp_path: Path) -> None:
    script = [Reply(tool_calls=(call("mcp__web__whoami", {}, "c1"),)), Reply(text="ok")]
    ws = tmp_path / "ws"
    ws.mkdir()
    with demo_http() as url, server_for("chat", script) as server:
        web = McpServerSettings(url=url, bearer_token_env_var="WEB_TOKEN", headers={"X-Team": "core"})
        opts = mcp_options(ws, tmp_path, server, {"web": web})
        opts = dataclasses.replace(opts, env={**opts.env, "WEB_TOKEN": "s3cret"})
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("go"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert tool_results(bodies[1]) == {"c1": "Bearer s3cret"}


async def test_disabled_and_enabled_tools_filter_what_the_model_is_offered(tmp_path: Path) -> None:
    servers = {
        "some": demo_stdio(enabled_tools=("echo", "pi*"), disabled_tools=("pixel",)),
        "all": demo_stdio(),
    }
    _, bodies = await _one_turn(tmp_path, servers, [Reply(text="ok")])
    offered = [name for name in tool_names(bodies[0]) if name.startswith("mcp__")]
    assert [name for name in offered if name.startswith("mcp__some__")] == [
        "mcp__some__echo",
        "mcp__some__pid",
    ]
    assert len([name for name in offered if name.startswith("mcp__all__")]) == 8
    assert offered == sorted(offered)


async def test_parallel_calls_to_a_dead_server_share_one_restart(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = [Reply(tool_calls=(call("mcp__demo__pid", {}, "c1"),)), Reply(text="pid")]
    with server_for("chat", script) as server:
        session = await Session.open(
            mcp_options(ws, tmp_path, server, {"demo": demo_stdio()}, approval="read-only")
        )
        reader = Reader(session)
        assert session._mcp is not None
        connection = session._mcp.manager.connections[0]
        assert await connection.wait_ready(30)
        await connection.aclose()
        results = await asyncio.gather(*(connection.call("pid", {}) for _ in range(3)))
        await reader.close()
    pids = {r.content[0].text for r in results}  # type: ignore[union-attr]
    assert len(pids) == 1
    assert connection.restarts == 1
