"""The subprocess transport: a `vtcode acp` child per session, large payloads, a killed child, no orphans."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import psutil
import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options, tool_results
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

MIB = 1024 * 1024
PAYLOAD = 50 * MIB


def _call(name: str, arguments: dict[str, object], call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


def _children(workspace: Path) -> list[psutil.Process]:
    """The `vtcode acp` children this process started for `workspace`."""
    found = []
    for child in psutil.Process().children():
        try:
            argv = child.cmdline()
        except psutil.NoSuchProcess:
            continue
        if "acp" in argv and str(workspace) in argv:
            found.append(child)
    return found


def _peak_rss(pid: int) -> int:
    """The highest resident set size the process has had (VmHWM), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def _alive(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def test_a_50_mib_tool_result_crosses_the_transport_whole_and_the_model_gets_a_spooled_preview(
    tmp_path: Path, transport: TransportName
) -> None:
    @vt.tool(read_only=True)
    def dump() -> str:
        """Return 50 MiB of text."""
        return ("x" * 1023 + "\n") * (PAYLOAD // 1024)

    peaks: list[int] = []
    with server_for("chat", [_call("dump", {}, "c1"), Reply(text="ok")]) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, tools=[dump], transport=transport)
        ) as s:
            result = await s.run("dump")
            peaks.extend(_peak_rss(c.pid) for c in _children(tmp_path))
        sent = tool_results(server.requests[1].json(), "chat")[0]
        request_bytes = len(server.requests[1].body)
    whole = result.items[0]
    assert isinstance(whole, vt.ToolCallItem)
    assert whole.result is not None
    assert len(whole.result) == PAYLOAD
    assert (result.status, result.final_text) == ("completed", "ok")
    # The model reads a preview and where the whole text is, not 50 MiB.
    assert request_bytes < 200_000
    spooled = re.search(r"the whole output \((\d+) bytes\) is in (\S+);", sent)
    assert spooled is not None
    assert (tmp_path / spooled.group(2)).stat().st_size == PAYLOAD
    if transport == "subprocess":
        # The child holds the message a few times over (line, text, event, log line; about 5x measured),
        # never an unbounded pile of chunks.
        assert len(peaks) == 1
        assert peaks[0] < 8 * PAYLOAD


async def test_a_50_mib_command_output_crosses_the_transport_bounded_and_spooled(
    tmp_path: Path, transport: TransportName
) -> None:
    command = f"head -c {PAYLOAD} /dev/zero | tr '\\0' 'y'; echo; echo end-of-output"
    arguments = {"cmd": command, "yield_time_ms": 120000}
    script = [_call("exec_command", arguments, "c1"), Reply(text="seen")]
    with server_for("chat", script) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            result = await s.run("print a lot")
        sent = tool_results(server.requests[1].json(), "chat")[0]
        request_bytes = len(server.requests[1].body)
    item = result.items[0]
    assert isinstance(item, vt.CommandExecutionItem)
    assert item.exit_code == 0
    assert "end-of-output" in item.aggregated_output
    assert len(item.aggregated_output) < MIB
    assert (result.status, result.final_text) == ("completed", "seen")
    assert request_bytes < 200_000
    assert "end-of-output" in sent


async def test_sigkill_of_the_child_mid_turn_raises_transport_error_and_resume_continues(
    tmp_path: Path,
) -> None:
    gate = asyncio.Event()

    @vt.tool(read_only=True)
    async def wait_here() -> str:
        """Wait until the test lets go."""
        gate.set()
        await asyncio.sleep(3600)
        return "never"

    script = [_call("wait_here", {}, "c1"), Reply(text="after the crash")]
    with server_for("chat", script) as server:
        options = sdk_options(tmp_path, server, tools=[wait_here], transport="subprocess")
        session = await vt.Session.open(options)
        try:
            turn = await session.start("remember the word kumquat")
            await asyncio.wait_for(gate.wait(), 60)
            (child,) = _children(tmp_path)
            os.kill(child.pid, signal.SIGKILL)
            with pytest.raises(vt.TransportError) as failed:
                await asyncio.wait_for(turn.result(), 30)
            # The dead session refuses the next turn at once instead of waiting for ever.
            with pytest.raises(vt.TransportError, match="has ended"):
                await asyncio.wait_for(session.run("anyone there?"), 30)
        finally:
            await session.close()
        assert failed.value.returncode == -signal.SIGKILL
        assert session.id in (failed.value.hint or "")
        async with await vt.Session.resume(session.id, options) as again:
            result = await asyncio.wait_for(again.run("which word?"), 60)
        sent = json.dumps(server.requests[-1].json()["messages"])
    assert again.id == session.id
    assert result.final_text == "after the crash"
    assert "remember the word kumquat" in sent
    assert "which word?" in sent


async def test_closing_a_subprocess_session_mid_command_leaves_no_process(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid.txt"
    arguments = {"cmd": "echo $$ > pid.txt; exec sleep 600", "yield_time_ms": 600000}
    with server_for("chat", [_call("exec_command", arguments, "c1")]) as server:
        session = await vt.Session.open(sdk_options(tmp_path, server, transport="subprocess"))
        (child,) = _children(tmp_path)
        turn = await session.start("wait")
        async with asyncio.timeout(60):
            while not pid_file.exists() or not pid_file.read_text().strip():  # noqa: ASYNC110 - a child writes it
                await asyncio.sleep(0.05)
        command = psutil.Process(int(pid_file.read_text()))
        await asyncio.wait_for(session.close(), 60)
        result = await asyncio.wait_for(turn.result(), 60)
    assert result.status in ("interrupted", "failed")
    assert not _alive(child)
    assert not _alive(command)
    assert _children(tmp_path) == []


@pytest.mark.filterwarnings("error")
async def test_subprocess_sessions_cancelled_inside_one_task_group_end_cleanly_and_go_on(
    tmp_path: Path,
) -> None:
    loop_errors: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _loop, context: loop_errors.append(context))
    started: list[str] = []

    @vt.tool(read_only=True)
    async def wait_forever(ctx: vt.ToolContext) -> str:
        """Wait until cancelled."""
        started.append(ctx.session_id)
        await asyncio.Event().wait()
        return "unreachable"

    sessions, servers = [], []
    for i in range(3):
        space = tmp_path / f"s{i}"
        space.mkdir()
        server = server_for("chat", [_call("wait_forever", {}, "c1"), Reply(text=f"after {i}")])
        servers.append(server.__enter__())
        options = sdk_options(space, server, tools=[wait_forever], transport="subprocess")
        sessions.append(await vt.Session.open(options))

    async def run_all() -> None:
        async with asyncio.TaskGroup() as group:
            for session in sessions:
                group.create_task(session.run("wait"))

    try:
        runs = asyncio.create_task(run_all())
        async with asyncio.timeout(120):
            while len(started) < len(sessions):  # noqa: ASYNC110 - the tools report in
                await asyncio.sleep(0.02)
        runs.cancel()
        with pytest.raises(asyncio.CancelledError):
            await runs
        # Each turn ended before the cancellation came back: the session takes the next one.
        after = await asyncio.wait_for(sessions[0].run("again"), 60)
        await asyncio.gather(*(s.close() for s in sessions))
    finally:
        for server in servers:
            server.__exit__(None, None, None)
    gc.collect()
    await asyncio.sleep(0)
    assert after.final_text == "after 0"
    assert loop_errors == []
    assert all(_children(tmp_path / f"s{i}") == [] for i in range(3))


_PROGRAM = """
import asyncio, sys
import psutil
import vtcode.sdk as vt

async def main():
    options = vt.Options(workspace=sys.argv[1], provider="openai", model="gpt-4.1", transport="subprocess")
    async with await vt.Session.open(options):
        (child,) = psutil.Process().children()
        open(sys.argv[2], "w").write(str(child.pid))
        await asyncio.sleep(3600)

asyncio.run(main())
"""


async def test_a_program_killed_with_sigkill_takes_its_child_with_it(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    env = {**os.environ, "OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    program = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _PROGRAM, str(tmp_path), str(pid_file), env=env
    )
    try:
        async with asyncio.timeout(120):
            while not pid_file.exists() or not pid_file.read_text():  # noqa: ASYNC110 - the program writes it
                await asyncio.sleep(0.05)
        child = psutil.Process(int(pid_file.read_text()))
        assert _alive(child)
        program.kill()
        await program.wait()
        # The child's parent-death signal ends it; nothing is left to adopt.
        async with asyncio.timeout(30):
            while _alive(child):  # noqa: ASYNC110 - polling another process
                await asyncio.sleep(0.05)
    finally:
        if program.returncode is None:
            program.kill()
            await program.wait()
