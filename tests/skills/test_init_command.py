"""`/init`: vtcode's own prompt for writing or improving `AGENTS.md`, from every front end, in a workspace
with no skill or command folder at all (the common case), and never a user's file of that name."""

from __future__ import annotations

from pathlib import Path

from acp import text_block

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from tests.skills.helpers import repo
from vtcode.core.prompt_commands import INIT_PROMPT
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_env, server_for


def test_exec_init_sends_the_agents_md_prompt_with_the_users_focus(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    with server_for("chat", [Reply(text="wrote AGENTS.md")]) as server:
        result = vtcode.run(
            "exec", "--provider", "openai", "/init focus on the test commands", cwd=root,
            env=cli_env("chat", server),
        )  # fmt: skip
        sent = server.requests[0].json()["messages"][-1]["content"]
    assert result.code == 0, result.stderr
    assert sent.startswith("Write an `AGENTS.md` at the root of this repository")
    assert sent.endswith("\n\nThe user adds: focus on the test commands")
    assert "/init" not in sent


def test_a_custom_command_called_init_does_not_replace_the_built_in_prompt(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/init.md").write_text("MY OWN INIT")
    with server_for("chat", [Reply(text="ok")]) as server:
        result = vtcode.run("exec", "--provider", "openai", "/init", cwd=root, env=cli_env("chat", server))
        sent = server.requests[0].json()["messages"][-1]["content"]
    assert result.code == 0, result.stderr
    assert sent == INIT_PROMPT


async def test_an_acp_prompt_init_sends_the_agents_md_prompt(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    with server_for("chat", [Reply(text="done")]) as server:
        async with acp_agent(vtcode, root, server) as agent:
            await agent.conn.initialize(protocol_version=1)
            session = await agent.conn.new_session(cwd=str(root), mcp_servers=[])
            done = await agent.conn.prompt(session_id=session.session_id, prompt=[text_block("/init")])
            assert done.stop_reason == "end_turn"
        sent = server.requests[0].json()["messages"][-1]["content"]
    assert sent == INIT_PROMPT
