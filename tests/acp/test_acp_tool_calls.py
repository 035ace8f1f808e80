"""Tool calls over ACP: tool_call then tool_call_update with the result, diffs for edits, and "ask"
approvals as the editor's permission requests."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from acp import text_block
from acp.schema import ContentToolCallContent, FileEditToolCallContent, ToolCallProgress, ToolCallStart

from tests.acp.harness import EditorClient, acp_agent
from tests.conftest import VtcodeRunner
from tests.e2e.harness import CALC_BUGGY, FIX_PATCH
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

TOUCH = Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": "touch ran.txt"}), id="c1"),))


def _tool_result(request: dict[str, object]) -> str:
    messages = request["messages"]
    assert isinstance(messages, list)
    return str(next(m for m in messages if m["role"] == "tool")["content"])


async def test_a_tool_call_shows_tool_call_then_an_update_with_its_result(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("the notes on disk\n")
    read = Reply(tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "notes.txt"}), id="r1"),))
    with server_for("chat", [read, Reply(text="read it")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("read notes")])
            assert done.stop_reason == "end_turn"
            updates = agent.client.tool_updates()
    start, *progress = updates
    assert isinstance(start, ToolCallStart)
    assert start.kind == "read"
    assert "notes.txt" in start.title
    assert [loc.path for loc in start.locations or []] == [str(tmp_path / "notes.txt")]
    last = progress[-1]
    assert isinstance(last, ToolCallProgress)
    assert last.tool_call_id == start.tool_call_id
    assert last.status == "completed"
    shown = [c for c in last.content or [] if isinstance(c, ContentToolCallContent)]
    assert "the notes on disk" in json.dumps(shown[0].model_dump(mode="json"))


async def test_an_edit_shows_its_diff(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text(CALC_BUGGY)
    patch = Reply(tool_calls=(ScriptToolCall("apply_patch", json.dumps({"patch": FIX_PATCH}), id="p1"),))
    with server_for("chat", [patch, Reply(text="fixed")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("fix add")])
            assert done.stop_reason == "end_turn"
            updates = agent.client.tool_updates()
    assert "return a + b" in (tmp_path / "calc.py").read_text()
    start, last = updates[0], updates[-1]
    assert isinstance(start, ToolCallStart)
    assert start.kind == "edit"
    assert isinstance(last, ToolCallProgress)
    assert last.status == "completed"
    diffs = [c for c in last.content or [] if isinstance(c, FileEditToolCallContent)]
    assert len(diffs) == 1
    assert diffs[0].path == str(tmp_path / "calc.py")
    assert "return a - b" in (diffs[0].old_text or "")
    assert "return a + b" in diffs[0].new_text
    assert "return a + b" not in (diffs[0].old_text or "")
    assert [loc.path for loc in last.locations or []] == [str(tmp_path / "calc.py")]


async def test_an_ask_command_raises_a_permission_request_and_allow_runs_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [TOUCH, Reply(text="done")]) as server:
        async with acp_agent(vtcode, tmp_path, server, EditorClient(choice="allow-once")) as agent:
            session_id = await agent.start()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("touch it")])
            assert done.stop_reason == "end_turn"
            asked = agent.client.permissions
        told = _tool_result(server.requests[-1].json())
    assert (tmp_path / "ran.txt").exists()
    assert len(asked) == 1
    call, options = asked[0]
    assert call.title == "touch ran.txt"
    assert [o.kind for o in options] == ["allow_once", "allow_always", "reject_once"]
    assert '"exit_code":0' in told


async def test_a_rejected_command_is_refused_and_the_model_is_told_why(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    with server_for("chat", [TOUCH, Reply(text="ok, not touching")]) as server:
        async with acp_agent(vtcode, tmp_path, server, EditorClient(choice="reject")) as agent:
            session_id = await agent.start()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("touch it")])
            assert done.stop_reason == "end_turn"
            last = agent.client.tool_updates()[-1]
        told = _tool_result(server.requests[-1].json())
    assert not (tmp_path / "ran.txt").exists()
    assert "rejected this call in Test Editor" in told
    assert isinstance(last, ToolCallProgress)
    assert last.status == "failed"


async def test_allow_always_lets_the_same_command_prefix_run_without_asking_again(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    again = Reply(
        tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": "touch second.txt"}), id="c2"),)
    )
    with server_for("chat", [TOUCH, again, Reply(text="done")]) as server:
        async with acp_agent(vtcode, tmp_path, server, EditorClient(choice="allow-always")) as agent:
            session_id = await agent.start()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("touch both")])
            assert done.stop_reason == "end_turn"
            asked = agent.client.permissions
    assert (tmp_path / "ran.txt").exists()
    assert (tmp_path / "second.txt").exists()
    assert len(asked) == 1


async def test_cancel_while_a_permission_waits_counts_as_reject(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [TOUCH, Reply(text="unused")]) as server:
        async with acp_agent(vtcode, tmp_path, server, EditorClient(choice=None)) as agent:
            session_id = await agent.start()
            prompt = asyncio.ensure_future(
                agent.conn.prompt(session_id=session_id, prompt=[text_block("touch")])
            )
            await agent.client.wait_for(lambda: bool(agent.client.permissions))
            await agent.conn.cancel(session_id=session_id)
            done = await prompt
            assert done.stop_reason == "cancelled"
            last = agent.client.tool_updates()[-1]
    assert not (tmp_path / "ran.txt").exists()
    assert isinstance(last, ToolCallProgress)
    assert last.status == "failed"


async def test_reads_go_through_the_editor_so_the_model_sees_the_unsaved_buffer(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("saved text on disk\n")
    editor = EditorClient(buffers={str(notes): "unsaved text in the editor\n"})
    read = Reply(tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "notes.txt"}), id="r1"),))
    with server_for("chat", [read, Reply(text="read it")]) as server:
        async with acp_agent(vtcode, tmp_path, server, editor) as agent:
            session_id = await agent.start(fs=True)
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("read notes")])
            assert done.stop_reason == "end_turn"
        told = _tool_result(server.requests[-1].json())
    assert editor.reads == [str(notes)]
    assert "unsaved text in the editor" in told
    assert "saved text on disk" not in told


async def test_edits_are_handed_to_the_editor_so_later_reads_see_them(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("old text\n")
    editor = EditorClient(buffers={str(notes): "old text\n"})
    write = Reply(
        tool_calls=(
            ScriptToolCall("write_file", json.dumps({"path": "notes.txt", "content": "new text\n"}), id="w1"),
        )
    )
    read = Reply(tool_calls=(ScriptToolCall("read_file", json.dumps({"path": "notes.txt"}), id="r1"),))
    with server_for("chat", [write, read, Reply(text="done")]) as server:
        async with acp_agent(vtcode, tmp_path, server, editor) as agent:
            session_id = await agent.start(fs=True)
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("rewrite notes")])
            assert done.stop_reason == "end_turn"
        told = _tool_result_of(server.requests[-1].json(), "r1")
    assert editor.writes == {str(notes): "new text\n"}
    assert editor.reads == [str(notes)]
    assert "new text" in told
    assert notes.read_text() == "new text\n"


def _tool_result_of(request: dict[str, object], call_id: str) -> str:
    messages = request["messages"]
    assert isinstance(messages, list)
    return str(next(m for m in messages if m["role"] == "tool" and m["tool_call_id"] == call_id)["content"])
