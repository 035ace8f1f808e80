"""Typed `pre_tool` / `post_tool` / `pre_compact` hooks decide, in order, next to the configured command
hooks, and what they decide shows where the model and the workspace see it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import vtcode.sdk as vt
from tests.hooks.helpers import script, user_config
from tests.sdk.sdk_helpers import sdk_options, tool_results
from vtcode.core.approvals import ApprovalMode
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


def _command(cmd: str, call_id: str = "c1") -> Reply:
    arguments = json.dumps({"cmd": cmd, "yield_time_ms": 5000})
    return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id=call_id),))


async def _run(
    tmp_path: Path,
    hooks: vt.Hooks,
    cmd: str,
    approval: ApprovalMode = "full-auto",
    transport: TransportName = "in-process",
) -> tuple[vt.TurnResult[Any], list[str]]:
    opts = sdk_options(tmp_path, server := server_for("chat", [_command(cmd), Reply(text="done")]),
                       hooks=hooks, approval=approval, transport=transport)  # fmt: skip
    with server:
        async with await vt.Session.open(opts) as s:
            result = await s.run("go")
        return result, tool_results(server.requests[1].json(), "chat")


async def test_pre_tool_hooks_run_in_order_and_a_rewrite_reaches_the_next_hook_and_the_tool(
    tmp_path: Path, transport: TransportName
) -> None:
    seen: list[tuple[str, str, str]] = []

    def first(call: vt.PreTool) -> vt.HookResult:
        seen.append(("first", call.tool, call.args["cmd"]))
        return vt.HookResult.rewrite({**call.args, "cmd": "echo rewritten > out.txt"})

    async def second(call: vt.PreTool) -> None:
        seen.append(("second", call.tool, call.args["cmd"]))

    hooks = vt.Hooks(pre_tool=[first, vt.HookSpec(second, matcher="Bash")])
    result, results = await _run(tmp_path, hooks, "echo original > out.txt", transport=transport)
    assert seen == [
        ("first", "exec_command", "echo original > out.txt"),
        ("second", "exec_command", "echo rewritten > out.txt"),
    ]
    assert (tmp_path / "out.txt").read_text() == "rewritten\n"
    assert result.status == "completed"
    assert len(results) == 1


async def test_a_blocking_pre_tool_hook_stops_the_call_and_the_chain(
    tmp_path: Path, transport: TransportName
) -> None:
    later: list[str] = []

    def guard(call: vt.PreTool) -> vt.HookResult | None:
        if "rm " in call.args["cmd"]:
            return vt.HookResult.block("no deleting in this repo")
        return None

    hooks = vt.Hooks(pre_tool=[guard, lambda call: later.append(call.tool)])
    (tmp_path / "keep.txt").write_text("precious")
    _, results = await _run(tmp_path, hooks, "rm keep.txt", transport=transport)
    assert (tmp_path / "keep.txt").read_text() == "precious"
    assert results == ["ERROR: not run: no deleting in this repo"]
    assert later == []


async def test_a_pre_tool_hook_that_raises_blocks_the_call(tmp_path: Path, transport: TransportName) -> None:
    def broken(call: vt.PreTool) -> None:
        raise RuntimeError("policy service down")

    _, results = await _run(tmp_path, vt.Hooks(pre_tool=[broken]), "echo x > ran.txt", transport=transport)
    assert not (tmp_path / "ran.txt").exists()
    assert len(results) == 1
    assert "the pre_tool `" in results[0]
    assert (
        "broken` hook failed, so the call is blocked: it raised RuntimeError: policy service down"
        in (results[0])
    )


async def test_a_pre_tool_hook_that_answers_garbage_blocks_the_call(
    tmp_path: Path, transport: TransportName
) -> None:
    def confused(call: vt.PreTool) -> Any:
        return {"action": "allow"}

    _, results = await _run(tmp_path, vt.Hooks(pre_tool=[confused]), "echo x > ran.txt", transport=transport)
    assert not (tmp_path / "ran.txt").exists()
    assert (
        "hook failed, so the call is blocked: it raised TypeError: a hook returns vtcode.sdk.HookResult"
        in (results[0])
    )


async def test_a_pre_tool_hook_over_its_timeout_blocks_the_call(
    tmp_path: Path, transport: TransportName
) -> None:
    async def slow(call: vt.PreTool) -> None:
        await asyncio.sleep(60)

    hooks = vt.Hooks(pre_tool=[vt.HookSpec(slow, timeout=0.2)])
    _, results = await _run(tmp_path, hooks, "echo x > ran.txt", transport=transport)
    assert not (tmp_path / "ran.txt").exists()
    assert "it ran longer than its timeout of 0.2 s" in results[0]


async def test_a_pre_tool_allow_skips_the_approval_the_mode_would_ask_for(
    tmp_path: Path, transport: TransportName
) -> None:
    hooks = vt.Hooks(pre_tool=[lambda call: vt.HookResult.allow("checked by CI policy")])
    result, _ = await _run(tmp_path, hooks, "echo ok > ok.txt", approval="ask", transport=transport)
    assert (tmp_path / "ok.txt").read_text() == "ok\n"
    assert result.status == "completed"


async def test_post_tool_sees_the_result_and_adds_what_the_model_reads(
    tmp_path: Path, transport: TransportName
) -> None:
    seen: list[tuple[str, bool, int | None]] = []

    def lint(done: vt.PostTool) -> vt.HookResult:
        seen.append((json.loads(done.result)["output"], done.is_error, done.exit_code))
        return vt.HookResult.proceed(context="lint: 2 warnings")

    _, results = await _run(tmp_path, vt.Hooks(post_tool=[lint]), "echo hello", transport=transport)
    assert seen == [("hello\n", False, 0)]
    assert "hello" in results[0]
    assert "lint: 2 warnings" in results[0]


async def test_typed_hooks_run_alongside_the_configured_command_hooks(
    tmp_path: Path, isolated_home: Path, transport: TransportName
) -> None:
    log = tmp_path / "command-hook.log"
    hook = script(tmp_path / "hook.sh", f"cat > /dev/null\necho command >> {log}\n")
    user_config(
        isolated_home,
        f'[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ncommand = "{hook}"\n',
    )
    ws = tmp_path / "ws"
    ws.mkdir()
    typed: list[str] = []
    hooks = vt.Hooks(pre_tool=[lambda call: typed.append(call.args["cmd"])])
    await _run(ws, hooks, "echo both > both.txt", transport=transport)
    assert log.read_text() == "command\n"
    assert typed == ["echo both > both.txt"]
    assert (ws / "both.txt").read_text() == "both\n"


async def test_a_pre_compact_hook_can_block_a_compaction(tmp_path: Path, transport: TransportName) -> None:
    seen: list[str] = []

    def keep(compaction: vt.PreCompact) -> vt.HookResult:
        seen.append(compaction.trigger)
        return vt.HookResult.block("the audit needs the whole history")

    hooks = vt.Hooks(pre_compact=[keep])
    server = server_for("chat", [Reply(text="first-reply"), Reply(text="second")])
    opts = sdk_options(tmp_path, server, hooks=hooks, transport=transport)
    with server:
        async with await vt.Session.open(opts) as s:
            await s.run("hello")
            # A blocked compaction kept the history as it was: `compact()` raises, saying why.
            with pytest.raises(vt.CompactionError) as blocked:
                await s.compact()
            turn = await s.start("again")
            notices = [e.message async for e in turn.events() if isinstance(e, vt.Notice)]
        requests = server.requests
    message = "compaction blocked by a PreCompact hook: the audit needs the whole history"
    assert blocked.value.message == message
    assert seen == ["manual"]
    assert message in notices
    # No summary was asked for: the two requests are the two turns', the second with the first turn.
    assert len(requests) == 2
    assert "first-reply" in json.dumps(requests[1].json()["messages"])
