"""Checkpoints recorded by a live session: the user's repository untouched, big files left out,
a command's and an MCP tool's changes attributed and rewindable."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

import msgspec

from tests.checkpoints.rewind_helpers import git, user_repo
from tests.conftest import VtcodeRunner
from tests.runtime.session_helpers import Reader, options
from vtcode.config.schema import McpServerSettings, McpSettings
from vtcode.protocol.events import Notice, TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for

WRITER = Path(__file__).with_name("writer_server.py")


def _command(cmd: str, call_id: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": cmd}), id=call_id),))


async def _turns(opts: SessionOptions, prompts: list[str]) -> Reader:
    session = await Session.open(opts)
    reader = Reader(session)
    for n, prompt in enumerate(prompts):
        after = len(reader.events)
        await session.submit(UserInput(prompt))
        await reader.wait_for(TurnCompleted, after=after)
        assert n + 1 == len(reader.of(TurnCompleted))
    await reader.close()
    return reader


def _touch(path: Path) -> Path:
    path.touch()
    return path


def _user_git_state(repo: Path) -> tuple[str, str, str, bytes]:
    return (
        git(repo, "count-objects", "-v"),
        git(repo, "for-each-ref"),
        git(repo, "stash", "list"),
        (repo / ".git" / "index").read_bytes(),
    )


async def test_fifty_checkpointed_turns_never_write_into_the_users_git(tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"tracked.txt": "v0\n", "src/m.py": "pass\n"})
    before = _user_git_state(ws)
    turns = 50
    script: list[Reply] = []
    for n in range(turns):
        script += [_command(f"echo {n} >> tracked.txt && echo {n} > new{n}.txt", f"c{n}"), Reply(text="ok")]
    with server_for("chat", script) as server:
        reader = await _turns(options(ws, tmp_path, server), [f"turn {n}" for n in range(turns)])
    changed = [e.message for e in reader.of(Notice) if "changed 2 file(s)" in e.message]
    assert len(changed) == turns, reader.of(Notice)
    assert _user_git_state(ws) == before
    snapshots = tmp_path / ".vtcode" / "snapshots"
    assert any(snapshots.iterdir()), "the snapshots went to the private repository"


async def test_a_command_s_changes_are_attributed_to_it(tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"b.txt": "b\n", "c": "c\n"})
    script = [_command("rm b.txt && mv c d", "c1"), Reply(text="ok")]
    with server_for("chat", script) as server:
        reader = await _turns(options(ws, tmp_path, server), ["shuffle"])
    said = [e.message for e in reader.of(Notice) if "changed" in e.message]
    assert said == ["`rm b.txt && mv c d` changed 3 file(s): b.txt, c, d"]


async def test_a_huge_untracked_file_is_left_out_with_one_warning(tmp_path: Path) -> None:
    ws = user_repo(tmp_path / "ws", {"a.txt": "a\n"})
    os.truncate(_touch(ws / "huge.bin"), 3 * 1024**3)  # sparse: 3 GB that take no disk
    many = ws / "cache"
    many.mkdir()
    for n in range(250):
        (many / f"f{n}").write_text("x")
    script = [
        _command("echo 1 >> a.txt", "c1"),
        Reply(text="ok"),
        _command("echo 2 >> a.txt", "c2"),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        reader = await _turns(options(ws, tmp_path, server), ["one", "two"])
    warnings = [e.message for e in reader.of(Notice) if e.level == "warning" and "leave out" in e.message]
    assert len([w for w in warnings if "huge.bin" in w]) == 1, warnings
    assert len([w for w in warnings if "cache/" in w]) == 1, warnings
    used = sum(
        f.stat().st_blocks * 512 for f in (tmp_path / ".vtcode" / "snapshots").rglob("*") if f.is_file()
    )
    assert used < 50 * 1024 * 1024, "the 3 GB file was never hashed into the snapshots"


async def test_an_mcp_tools_edit_is_in_the_turns_checkpoint(tmp_path: Path, vtcode: VtcodeRunner) -> None:
    ws = user_repo(tmp_path / "ws", {"kept.txt": "original\n"})
    arguments = {"path": str(ws / "kept.txt"), "text": "written by mcp\n"}
    script = [
        Reply(tool_calls=(ScriptToolCall("mcp__writer__write_text", json.dumps(arguments), id="m1"),)),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        base = options(ws, tmp_path, server)
        servers = {"writer": McpServerSettings(command=sys.executable, args=(str(WRITER),))}
        # The server joins before the first request (a slow start must not skip the tool).
        mcp = McpSettings(startup_grace_seconds=30.0)
        settings = msgspec.structs.replace(base.settings, mcp_servers=servers, mcp=mcp)
        opts = dataclasses.replace(base, settings=settings)
        reader = await _turns(opts, ["use mcp"])
    assert (ws / "kept.txt").read_text() == "written by mcp\n"
    notices = [e.message for e in reader.of(Notice)]
    assert "`mcp__writer__write_text` changed 1 file(s): kept.txt" in notices
    env = {"VTCODE_HOME": str(tmp_path / ".vtcode"), "HOME": str(tmp_path)}
    done = vtcode.run("rewind", "--to", "1", "--code", "--yes", cwd=ws, env=env)
    assert done.code == 0, done.stderr
    assert (ws / "kept.txt").read_text() == "original\n"


async def test_vtcodes_own_files_in_the_workspace_are_never_snapshotted(tmp_path: Path) -> None:
    # $VTCODE_HOME is tmp_path/.vtcode, inside the workspace: the snapshots must not take themselves in.
    script = [
        _command("echo 1 > x.txt", "c1"),
        Reply(text="ok"),
        _command("echo 2 > y.txt", "c2"),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        reader = await _turns(options(tmp_path, tmp_path, server), ["one", "two"])
    said = [e.message for e in reader.of(Notice) if "changed" in e.message]
    assert said == ["`echo 1 > x.txt` changed 1 file(s): x.txt", "`echo 2 > y.txt` changed 1 file(s): y.txt"]


async def test_a_subagents_edit_and_command_are_in_its_parents_checkpoint(
    tmp_path: Path, vtcode: VtcodeRunner
) -> None:
    ws = user_repo(tmp_path / "ws", {"kept.txt": "original\n", "gone.txt": "bye\n"})
    brief = {"subagent_type": "general", "description": "edit", "prompt": "change the files"}
    write = {"path": "kept.txt", "content": "written by the child\n"}
    script = [
        Reply(tool_calls=(ScriptToolCall("task", json.dumps(brief), id="t1"),)),
        # The child's requests: a write, a command, its answer; then the parent's answer.
        Reply(tool_calls=(ScriptToolCall("write_file", json.dumps(write), id="w1"),)),
        _command("rm gone.txt", "c1"),
        Reply(text="child done"),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        await _turns(options(ws, tmp_path, server), ["delegate"])
    assert (ws / "kept.txt").read_text() == "written by the child\n"
    assert not (ws / "gone.txt").exists()
    env = {"VTCODE_HOME": str(tmp_path / ".vtcode"), "HOME": str(tmp_path)}
    done = vtcode.run("rewind", "--to", "1", "--code", "--yes", cwd=ws, env=env)
    assert done.code == 0, done.stderr
    assert (ws / "kept.txt").read_text() == "original\n"
    assert (ws / "gone.txt").read_text() == "bye\n"
