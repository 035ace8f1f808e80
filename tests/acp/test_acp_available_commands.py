"""The editor's `/` menu: once a session is open (or loaded) the agent sends `available_commands_update`
with vtcode's own commands and the workspace's skills and custom commands, each with its hint."""

from __future__ import annotations

from pathlib import Path

from acp import text_block
from acp.schema import AvailableCommandsUpdate

from tests.acp.harness import Agent, acp_agent
from tests.conftest import VtcodeRunner
from tests.skills.helpers import repo, write_skill
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for


async def _menu(agent: Agent) -> AvailableCommandsUpdate:
    await agent.client.wait_for(
        lambda: any(isinstance(u, AvailableCommandsUpdate) for u in agent.client.updates)
    )
    return next(u for u in agent.client.updates if isinstance(u, AvailableCommandsUpdate))


def _hints(menu: AvailableCommandsUpdate) -> dict[str, str | None]:
    return {c.name: (c.input.root.hint if c.input is not None else None) for c in menu.available_commands}


async def test_a_new_session_offers_vtcodes_commands_then_the_workspaces_skills_and_commands(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "review", "Reviews a diff.", **{"argument-hint": "PATH"})
    write_skill(root / ".agents/skills", "house-style", "Model only.", **{"user-invocable": "false"})
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/fix.md").write_text(
        "---\ndescription: Fix an issue\nargument-hint: ISSUE\n---\nFix $0"
    )
    with server_for("chat", []) as server:
        async with acp_agent(vtcode, root, server) as agent:
            await agent.start()
            menu = await _menu(agent)
    assert _hints(menu) == {
        "init": "optional focus",
        "rewind": "TURN code|conversation|both",
        "redo": None,
        "review": "PATH",
        "fix": "ISSUE",
    }
    descriptions = {c.name: c.description for c in menu.available_commands}
    assert descriptions["fix"] == "Fix an issue"
    assert descriptions["review"] == "Reviews a diff."


async def test_a_loaded_session_offers_the_menu_too(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="first")]) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            session_id = await agent.start()
            await _menu(agent)
            await agent.conn.prompt(session_id=session_id, prompt=[text_block("hello")])
    with server_for("chat", []) as server:
        async with acp_agent(vtcode, tmp_path, server) as agent:
            await agent.conn.initialize(protocol_version=1)
            await agent.conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
            menu = await _menu(agent)
    assert list(_hints(menu)) == ["init", "rewind", "redo"]
