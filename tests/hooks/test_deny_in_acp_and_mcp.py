"""The same PreToolUse deny holds for an editor over `vtcode acp` and for an MCP tool call."""

from __future__ import annotations

import sys
from pathlib import Path

from acp import text_block

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from tests.hooks.helpers import call, exec_run, script, user_config
from tests.mcp.helpers import DEMO_SERVER
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for

GUARD = "cat > /dev/null\necho no >&2\nexit 2\n"


def _guard(home: Path, tmp_path: Path, matcher: str) -> None:
    guard = script(tmp_path / "guard.sh", GUARD)
    user_config(
        home,
        f'[[hooks.PreToolUse]]\nmatcher = "{matcher}"\n[[hooks.PreToolUse.hooks]]\ncommand = "{guard}"\n',
    )


async def test_a_pre_tool_use_deny_holds_over_acp(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    _guard(isolated_home, tmp_path, "Bash")
    steps = [call("exec_command", {"cmd": "touch ran"}), Reply(text="finished")]
    with server_for("chat", steps) as server:
        async with acp_agent(vtcode, ws, server, extra=("--approval", "full-auto")) as agent:
            session_id = await agent.start()
            done = await agent.conn.prompt(session_id=session_id, prompt=[text_block("go")])
            assert done.stop_reason == "end_turn"
        bodies = [r.json() for r in server.requests]
    assert not (ws / "ran").exists()
    assert [m["content"] for m in bodies[-1]["messages"] if m["role"] == "tool"] == ["ERROR: not run: no"]


def test_a_pre_tool_use_deny_holds_for_an_mcp_tool(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    added = vtcode.run("mcp", "add", "demo", "--", sys.executable, str(DEMO_SERVER))
    assert added.code == 0, added.stderr
    _guard(isolated_home, tmp_path, "mcp__demo__.*")
    steps = [call("mcp__demo__echo", {"text": "secret"}), Reply(text="finished")]
    # A loaded machine may start the server slower than the default 3 s grace: wait for it.
    run = exec_run(vtcode, ws, steps, "--approval", "full-auto", "-c", "mcp.startup_grace_seconds=60")
    assert run.result.code == 0, run.result.stderr
    assert run.tool_results() == ["ERROR: not run: no"]
    assert [(e["event"], e["outcome"]) for e in run.of("hook.completed")] == [("PreToolUse", "blocked")]
