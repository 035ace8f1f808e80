"""`approval="pause"`: the turn ends with `pending_approvals`, stored with the session; another process
resumes it and approves, and the call runs exactly once, even when a process is killed on the way."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options, tool_results
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.server import WireServer
from vtcode.testing.wire import server_for

DRIVER = Path(__file__).with_name("pause_driver.py")


def _command(cmd: str) -> Reply:
    arguments = json.dumps({"cmd": cmd, "yield_time_ms": 60000})
    return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id="c1"),))


def _options(workspace: Path, server: WireServer, transport: TransportName = "in-process") -> vt.Options:
    return sdk_options(workspace, server, approval="pause", transport=transport)


def _driver(options: vt.Options, session_id: str, step: str) -> subprocess.Popen[str]:
    fields: dict[str, Any] = {
        "workspace": str(options.workspace),
        "provider": options.provider,
        "model": options.model,
        "approval": options.approval,
        "env": dict(options.env),
        "transport": options.transport,
    }
    argv = [sys.executable, str(DRIVER), json.dumps(fields), session_id, step]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(predicate: Any, what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


async def _pause(
    tmp_path: Path, server: WireServer, transport: TransportName = "in-process"
) -> tuple[str, vt.TurnResult[Any]]:
    async with await vt.Session.open(_options(tmp_path, server, transport)) as s:
        result = await s.run("count")
    return s.id, result


def _sessions(home: Path) -> Path:
    return home / ".vtcode" / "sessions"


# The session pauses over the first transport; the later processes resume it over the second.
@pytest.mark.parametrize(
    ("transport", "later"),
    [("in-process", "in-process"), ("subprocess", "in-process"), ("in-process", "subprocess")],
)
async def test_a_paused_call_is_approved_in_a_new_process_and_runs_once_after_a_crash(
    tmp_path: Path, isolated_home: Path, transport: TransportName, later: TransportName
) -> None:
    count = tmp_path / "count.txt"
    script = [_command("echo ran >> count.txt"), Reply(text="counted"), Reply(text="still once")]
    with server_for("chat", script) as server:
        session_id, paused = await _pause(tmp_path, server, transport)
        assert paused.status == "paused"
        assert [(p.tool, p.display) for p in paused.pending_approvals] == [
            ("exec_command", "echo ran >> count.txt")
        ]
        assert not count.exists()
        stored = json.loads((_sessions(isolated_home) / session_id / "paused_calls.json").read_text())
        assert [c["state"] for c in stored["calls"]] == ["pending"]
        # A new process approves; it is killed right after the approval is recorded, before any run.
        approving = _driver(_options(tmp_path, server, later), session_id, "approve")
        assert approving.stdout is not None
        lines = [approving.stdout.readline(), approving.stdout.readline()]
        assert lines == ['{"pending": ["echo ran >> count.txt"]}\n', "approved\n"], approving.stderr
        os.kill(approving.pid, signal.SIGKILL)
        approving.wait(60)
        assert not count.exists()
        # Another process resumes: nothing waits for a decision; its turn runs the approved call first.
        continuing = _driver(_options(tmp_path, server, later), session_id, "continue")
        out, err = continuing.communicate(timeout=120)
        assert continuing.returncode == 0, err
        assert out.splitlines() == ['{"pending": []}', '{"status": "completed", "text": "counted"}']
        assert count.read_text() == "ran\n"
        told = json.dumps(server.requests[1].json()["messages"])
        assert "approved; it ran" in told
        assert "echo ran >> count.txt" in told
        # And never again.
        async with await vt.Session.resume(session_id, _options(tmp_path, server, transport)) as again:
            last = await again.run("anything else?")
        assert "approved; it ran" not in json.dumps(server.requests[2].json()["messages"][-1])
    assert count.read_text() == "ran\n"
    assert last.final_text == "still once"
    assert not (_sessions(isolated_home) / session_id / "paused_calls.json").exists()


async def test_a_call_running_when_its_process_died_is_never_started_again(
    tmp_path: Path, isolated_home: Path, transport: TransportName
) -> None:
    count = tmp_path / "count.txt"
    script = [_command("echo ran >> count.txt; sleep 60"), Reply(text="noted")]
    with server_for("chat", script) as server:
        session_id, paused = await _pause(tmp_path, server, transport)
        assert paused.status == "paused"
        async with await vt.Session.resume(session_id, _options(tmp_path, server, transport)) as s:
            await s.approve(paused.pending_approvals[0].request_id, vt.Allow())
        running = _driver(_options(tmp_path, server, transport), session_id, "continue")
        _wait_for(lambda: count.exists() and count.read_text() == "ran\n", "the approved command to start")
        os.kill(running.pid, signal.SIGKILL)
        running.wait(60)
        async with await vt.Session.resume(session_id, _options(tmp_path, server, transport)) as again:
            result = await again.run("go on")
        told = json.dumps(server.requests[1].json()["messages"])
    assert count.read_text() == "ran\n"
    assert "whether it finished is unknown, and it was not run again" in told
    assert result.final_text == "noted"


async def test_a_denied_paused_call_never_runs_and_undecided_ones_block_new_turns(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_command("echo no > denied.txt"), Reply(text="understood")]
    with server_for("chat", script) as server:
        session_id, paused = await _pause(tmp_path, server, transport)
        async with await vt.Session.resume(session_id, _options(tmp_path, server, transport)) as s:
            assert [p.request_id for p in s.pending_approvals] == [paused.pending_approvals[0].request_id]
            with pytest.raises(vt.VtcodeError, match="wait for a decision"):
                await s.run("go on")
            with pytest.raises(vt.VtcodeError, match="no paused call 'nope'"):
                await s.approve("nope", vt.Allow())
            with pytest.raises(vt.VtcodeError, match="runs as it was asked"):
                await s.approve(paused.pending_approvals[0].request_id, vt.Allow(updated_args={"cmd": "x"}))
            await s.approve(paused.pending_approvals[0].request_id, vt.Deny("not on a Friday"))
            result = await s.run("go on")
        told = json.dumps(server.requests[1].json()["messages"])
        first = tool_results(server.requests[1].json(), "chat")
    assert not (tmp_path / "denied.txt").exists()
    assert "denied: not on a Friday; it did not run" in told
    assert len(first) == 1
    assert result.final_text == "understood"


def test_a_sync_session_approves_a_paused_call_and_its_next_turn_runs_it(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_command("echo synced > sync.txt"), Reply(text="written")]
    with (
        server_for("chat", script) as server,
        vt.SyncSession.open(_options(tmp_path, server, transport)) as s,
    ):
        paused = s.run("write it")
        assert [p.display for p in s.pending_approvals] == ["echo synced > sync.txt"]
        s.approve(paused.pending_approvals[0].request_id, vt.Allow())
        assert s.pending_approvals == ()
        result = s.run("go on")
    assert paused.status == "paused"
    assert (tmp_path / "sync.txt").read_text() == "synced\n"
    assert result.final_text == "written"


async def test_a_paused_request_is_not_answered_through_the_turn_handle(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_command("echo once >> once.txt"), Reply(text="done")]
    with server_for("chat", script) as server:
        async with await vt.Session.open(_options(tmp_path, server, transport)) as s:
            turn = await s.start("write")
            async for event in turn.events():
                if isinstance(event, vt.ApprovalRequested):
                    with pytest.raises(vt.VtcodeError, match="was paused with the turn"):
                        await turn.approve(event.request_id, vt.Allow())
            paused = await turn.result()
            await s.approve(paused.pending_approvals[0].request_id, vt.Allow())
            await s.run("go on")
    assert paused.status == "paused"
    assert (tmp_path / "once.txt").read_text() == "once\n"
