"""A session driven only through `submit` / `events`: tools, queued input, interrupts, approvals, open."""

from __future__ import annotations

import asyncio
import json
import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.runtime.session_helpers import Reader, conversation, options
from vtcode.protocol.events import (
    ApprovalRequested,
    ApprovalResolved,
    CommandExecutionItem,
    IntentApplied,
    IntentQueued,
    ItemCompleted,
    ItemDelta,
    ItemStarted,
    Notice,
    ThreadStarted,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
)
from vtcode.protocol.messages import AssistantMessage, ToolResultMessage, UserMessage
from vtcode.protocol.ops import ApprovalAnswer, Interrupt, UserInput
from vtcode.runtime.approval_port import WITHDRAWN
from vtcode.runtime.session import Session
from vtcode.runtime.tool_dispatch import INTERRUPTED
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


def _call(name: str, arguments: dict[str, object], call_id: str) -> ScriptToolCall:
    return ScriptToolCall(name, json.dumps(arguments), id=call_id)


def _user_texts(request_body: dict[str, object]) -> list[str]:
    messages = request_body["messages"]
    assert isinstance(messages, list)
    return [m["content"] for m in messages if m["role"] == "user"]


async def _until(condition: Callable[[], bool]) -> None:
    """Poll a condition on something outside the loop (files, processes) for up to 20 s."""
    async with asyncio.timeout(20):
        while not condition():  # noqa: ASYNC110 - the state lives in other processes
            await asyncio.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes: it runs nothing.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


async def test_a_turn_with_tool_calls_is_reported_as_one_complete_stream(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_text("hello\n")
    script = [
        Reply(
            tool_calls=(
                _call("read_file", {"path": "a.txt"}, "c1"),
                _call("exec_command", {"cmd": "echo ran"}, "c2"),
            )
        ),
        Reply(text="all done"),
    ]
    with server_for("chat", script) as server:
        session = await Session.open(options(ws, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("read and run"))
        done = await reader.wait_for(TurnCompleted)
        await reader.close()
    assert isinstance(reader.events[0], ThreadStarted)
    assert [t for t in reader.types() if not t.startswith("item.delta")] == [
        "thread.started",
        "turn.started",
        "item.started:tool_call",
        "item.completed:tool_call",
        "item.started:command_execution",
        "item.completed:command_execution",
        "item.started:agent_message",
        "item.completed:agent_message",
        "turn.completed",
    ]
    assert done.turn_id == "turn_1"
    assert all(e.ts is not None for e in reader.events)
    assert all(e.turn_id == "turn_1" for e in reader.events[1:])
    deltas = reader.of(ItemDelta)
    assert "".join(d.delta for d in deltas) == "all done"
    completed = [e.item for e in reader.of(ItemCompleted)]
    assert isinstance(completed[1], CommandExecutionItem)
    assert completed[1].exit_code == 0
    # Tool results carry the paths they touched, for instruction scope on resume.
    results = [m for m in session.messages if isinstance(m, ToolResultMessage)]
    assert [r.meta.paths for r in results] == [("a.txt",), (".",)]


async def test_input_submitted_during_a_turn_runs_after_it_in_order(tmp_path: Path) -> None:
    slow = Reply(text="first answer " * 20, chunk_size=4, delay_between=0.03)
    with server_for("chat", [slow, Reply(text="second"), Reply(text="third")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("one"))
        await reader.wait_for(ItemDelta)
        await session.submit(UserInput("two"))
        await session.submit(UserInput("three", intent_id="my-intent"))
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_3")
        queued = [e.intent_id for e in reader.of(IntentQueued)]
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert len(queued) == 2
    assert queued[1] == "my-intent"
    assert [_user_texts(b)[-1] for b in bodies] == ["one", "two", "three"]
    assert [e.intent_id for e in reader.of(IntentApplied)] == queued
    starts = [e.turn_id for e in reader.of(TurnStarted)]
    assert starts == ["turn_1", "turn_2", "turn_3"]
    tagged = [m.meta.intent_id for m in conversation(session.messages) if isinstance(m, UserMessage)]
    assert tagged == [None, *queued]


async def test_interrupt_while_streaming_leaves_a_valid_history_and_a_usable_session(
    tmp_path: Path,
) -> None:
    slow = Reply(text="x" * 400, chunk_size=4, delay_between=0.05)
    with server_for("chat", [slow, Reply(text="after")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("long answer please"))
        await reader.wait_for(ItemDelta)
        await session.submit(Interrupt())
        failed = await reader.wait_for(TurnFailed)
        await session.submit(UserInput("again"))
        done = await reader.wait_for(TurnCompleted)
        await reader.close()
    assert (failed.kind, failed.exit_code, failed.turn_id) == ("interrupted", 130, "turn_1")
    assert done.turn_id == "turn_2"
    # No partial assistant message was kept from the interrupted stream; the history says the prompt
    # was interrupted, so the model knows and a resume does not answer it again.
    shown = [(type(m).__name__, m.meta.kind) for m in conversation(session.messages)]
    assert shown == [
        ("UserMessage", None),
        ("UserMessage", "interruption"),
        ("UserMessage", None),
        ("AssistantMessage", None),
    ]


async def test_interrupt_during_a_command_ends_its_process_group(tmp_path: Path) -> None:
    cmd = "echo $$ > shell.pid; sleep 60 & echo $! > child.pid; wait"
    script = [
        Reply(tool_calls=(_call("exec_command", {"cmd": cmd, "yield_time_ms": 30000}, "c1"),)),
        Reply(text="next turn ok"),
    ]
    with server_for("chat", script) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("run it"))
        await reader.wait_for(ItemStarted, lambda e: isinstance(e.item, CommandExecutionItem))
        await _until(lambda: (tmp_path / "child.pid").exists() and bool((tmp_path / "child.pid").read_text()))
        pids = [int((tmp_path / n).read_text()) for n in ("shell.pid", "child.pid")]
        await session.submit(Interrupt())
        await reader.wait_for(TurnFailed)
        await _until(lambda: not any(_alive(p) for p in pids))
        await session.submit(UserInput("still there?"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
    results = [m for m in session.messages if isinstance(m, ToolResultMessage)]
    assert [(r.call_id, r.content, r.is_error) for r in results] == [("c1", INTERRUPTED, True)]
    failed_items = [e.item for e in reader.of(ItemCompleted) if isinstance(e.item, CommandExecutionItem)]
    assert [i.status for i in failed_items] == ["failed"]


async def test_ask_approval_answered_allow_then_deny_then_left_until_interrupt(tmp_path: Path) -> None:
    script = [
        Reply(tool_calls=(_call("exec_command", {"cmd": "echo one > one.txt"}, "c1"),)),
        Reply(tool_calls=(_call("exec_command", {"cmd": "echo two > two.txt"}, "c2"),)),
        Reply(tool_calls=(_call("exec_command", {"cmd": "echo three > three.txt"}, "c3"),)),
    ]
    with server_for("chat", script) as server:
        session = await Session.open(options(tmp_path, tmp_path, server, approval="ask", headless=False))
        reader = Reader(session)
        await session.submit(UserInput("make files"))
        first = await reader.wait_for(ApprovalRequested)
        assert (first.tool, first.kind, first.display) == ("exec_command", "command", "echo one > one.txt")
        assert first.session_prefix == "echo"
        await session.submit(ApprovalAnswer(first.request_id, "allow_once"))
        second = await reader.wait_for(ApprovalRequested, lambda e: e.request_id != first.request_id)
        await session.submit(ApprovalAnswer(second.request_id, "deny", reason="not that one"))
        third = await reader.wait_for(
            ApprovalRequested, lambda e: e.request_id not in (first.request_id, second.request_id)
        )
        await session.submit(Interrupt())
        failed = await reader.wait_for(TurnFailed)
        await reader.close()
    assert failed.kind == "interrupted"
    assert [(e.request_id, e.decision) for e in reader.of(ApprovalResolved)] == [
        (first.request_id, "allow_once"),
        (second.request_id, "deny"),
        (third.request_id, "deny"),
    ]
    assert (tmp_path / "one.txt").exists()
    assert not (tmp_path / "two.txt").exists()
    assert not (tmp_path / "three.txt").exists()
    results = {m.call_id: m for m in session.messages if isinstance(m, ToolResultMessage)}
    assert not results["c1"].is_error
    assert results["c2"].content == "not run: not that one; do not retry it unchanged"
    # Withdrawn while it waited for an answer: the model reads that it never ran.
    assert results["c3"].content == WITHDRAWN
    statuses = [e.item.status for e in reader.of(ItemCompleted) if isinstance(e.item, CommandExecutionItem)]
    assert statuses == ["completed", "declined", "declined"]


async def test_allow_for_the_session_covers_later_commands_with_the_same_prefix(tmp_path: Path) -> None:
    script = [
        Reply(tool_calls=(_call("exec_command", {"cmd": "git init -q"}, "c1"),)),
        Reply(tool_calls=(_call("exec_command", {"cmd": "git init -q sub"}, "c2"),)),
        Reply(tool_calls=(_call("exec_command", {"cmd": "touch other"}, "c3"),)),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        session = await Session.open(options(tmp_path, tmp_path, server, approval="ask", headless=False))
        reader = Reader(session)
        await session.submit(UserInput("init"))
        first = await reader.wait_for(ApprovalRequested)
        assert first.session_prefix == "git init"
        await session.submit(ApprovalAnswer(first.request_id, "allow_prefix"))
        # `git init -q sub` runs without a question; `touch other` asks.
        other = await reader.wait_for(ApprovalRequested, lambda e: e.request_id != first.request_id)
        assert other.display == "touch other"
        await session.submit(ApprovalAnswer(other.request_id, "allow_once"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
    assert len(reader.of(ApprovalRequested)) == 2
    assert (tmp_path / "sub" / ".git").is_dir()
    assert (tmp_path / "other").exists()


async def test_an_answer_nobody_waits_for_is_a_notice(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        session = await Session.open(options(tmp_path, tmp_path, server, approval="ask", headless=False))
        reader = Reader(session)
        await session.submit(ApprovalAnswer("approval_nope", "allow_once"))
        notice = await reader.wait_for(Notice)
        await reader.close()
    assert "approval_nope" in notice.message


async def test_open_runs_blocking_work_off_the_event_loop(tmp_path: Path) -> None:
    # A stored session with a torn last line, and an Ollama host that accepts but never answers.
    with server_for("chat", [Reply(text="stored")]) as server:
        first = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(first)
        await first.submit(UserInput("hello"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
    history = tmp_path / ".vtcode" / "sessions" / first.id / "history.jsonl"
    with history.open("a") as file:
        file.write('{"seq": 99, "torn')
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    host = f"http://127.0.0.1:{silent.getsockname()[1]}"
    ticks = 0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0.005)

    ticking = asyncio.create_task(ticker())
    try:
        opts = options(tmp_path, tmp_path, server, provider="ollama", model=None)
        opts = type(opts)(**{**opts.__dict__, "env": {"OLLAMA_HOST": host}, "resume": first.id})
        before = ticks
        session = await Session.open(opts)
        during = ticks - before
    finally:
        stop.set()
        await ticking
        silent.close()
    reader = Reader(session)
    await reader.close()
    # The probe waited out its 0.3 s timeout in a worker thread while the ticker kept running.
    assert during >= 10
    assert session.model == "gpt-oss:20b"
    notices = [n.message for n in reader.of(Notice)]
    assert any("incomplete last line" in n or "torn" in n or "skipped" in n for n in notices), notices
    assert isinstance(reader.events[0], ThreadStarted)
    assert reader.events[0].resumed
    assert [type(m) for m in conversation(session.messages)] == [UserMessage, AssistantMessage]


@pytest.mark.parametrize("mode", ["queue", "steer"])
async def test_input_while_idle_starts_a_turn_at_once_in_either_mode(tmp_path: Path, mode: str) -> None:
    with server_for("chat", [Reply(text="ok")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("hi", mode=mode))  # type: ignore[arg-type]
        await reader.wait_for(TurnCompleted)
        await reader.close()
    assert not reader.of(IntentQueued)
