"""Subagent definition files: Claude Code's tool names, precedence, and what the child is offered."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.session_helpers import Reader, options
from tests.runtime.test_subagents import call, run, task, tool_results
from vtcode.core.agents.definitions import known_names
from vtcode.instructions.agent_files import load_agents
from vtcode.protocol.events import ApprovalRequested, TurnCompleted
from vtcode.protocol.ops import ApprovalAnswer, UserInput
from vtcode.runtime.session import Session
from vtcode.testing.script import Reply, Step
from vtcode.testing.wire import server_for

TOOLS = known_names({"read_file", "grep_files", "list_files", "exec_command", "write_stdin", "apply_patch"})


def _agent(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text(text)


async def test_a_claude_code_reviewer_with_read_and_grep_gets_read_file_and_grep_files(
    tmp_path: Path,
) -> None:
    _agent(
        tmp_path / ".claude" / "agents",
        "reviewer",
        "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nReview carefully.\n",
    )
    steps: list[Step] = [
        Reply(tool_calls=(task("reviewer", "review x.py"),)),
        Reply(text="fine"),
        Reply(text="ok"),
    ]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    assert [t["function"]["name"] for t in bodies[1]["tools"]] == ["read_file", "grep_files"]
    system = bodies[1]["messages"][0]
    assert system["role"] == "system"
    assert "Review carefully." in system["content"]


def test_project_definitions_shadow_user_ones_which_shadow_the_built_ins(tmp_path: Path) -> None:
    workspace, vtcode_home, home = tmp_path / "ws", tmp_path / "vt", tmp_path / "home"
    _agent(
        workspace / ".vtcode" / "agents", "explore", "---\nname: explore\ndescription: project explore\n---\n"
    )
    _agent(home / ".claude" / "agents", "explore", "---\nname: explore\ndescription: user explore\n---\n")
    _agent(vtcode_home / "agents", "helper", "---\nname: helper\ndescription: user helper\n---\n")
    _agent(home / ".claude" / "agents", "helper", "---\nname: helper\ndescription: claude helper\n---\n")
    catalog = load_agents(workspace, vtcode_home, home, known_tool=TOOLS, known_model=lambda _: False)
    shown = {name: (a.description, a.origin) for name, a in catalog.agents.items()}
    assert shown == {
        "explore": ("project explore", "project"),
        "helper": ("user helper", "user"),
        "general": (shown["general"][0], "built-in"),
    }
    assert catalog.diagnostics == ()


def test_frontmatter_people_write_loads_and_bad_values_name_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "ws" / ".vtcode" / "agents"
    # An unquoted colon in the description is invalid YAML; the line reader takes it as written.
    _agent(
        folder,
        "colon",
        "---\nname: colon\ndescription: Use when: the user asks\ntools: Bash(git *), Edit\n---\n",
    )
    _agent(folder, "turns", "---\nname: turns\ndescription: d\nmaxTurns: many\n---\n")
    _agent(folder, "nobody", "no frontmatter at all\n")
    catalog = load_agents(
        tmp_path / "ws", tmp_path / "vt", None, known_tool=TOOLS, known_model=lambda _: False
    )
    colon = catalog.agents["colon"]
    assert (colon.description, colon.tools) == (
        "Use when: the user asks",
        ("exec_command", "write_stdin", "apply_patch"),
    )
    assert sorted(catalog.agents) == ["colon", "explore", "general"]
    assert [d.split(": skipped: ")[0] for d in catalog.diagnostics] == [
        str(folder / "nobody.md"),
        str(folder / "turns.md"),
    ]


async def test_a_childs_approval_appears_in_the_parents_front_end_labelled_with_the_child(
    tmp_path: Path,
) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("general", "make a file"),)),
        call("exec_command", {"cmd": "touch made.txt"}, "c1"),
        Reply(text="made it"),
        Reply(text="ok"),
    ]
    with server_for("chat", steps) as server:
        opts = options(tmp_path, tmp_path, server, approval="ask", headless=False)
        session = await Session.open(opts)
        reader = Reader(session)
        await session.submit(UserInput("go"))
        asked = await reader.wait_for(ApprovalRequested)
        await session.submit(ApprovalAnswer(request_id=asked.request_id, decision="allow_once"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert asked.display.startswith("[subagent general agent-")
    assert asked.display.endswith("] touch made.txt")
    assert (tmp_path / "made.txt").exists()
    assert "made it" in tool_results(bodies[3])["t1"]


async def test_a_definition_narrows_but_never_widens_tools_and_approvals(tmp_path: Path) -> None:
    _agent(
        tmp_path / ".vtcode" / "agents",
        "planner",
        "---\nname: planner\ndescription: plans\ndisallowedTools: Bash\npermissionMode: plan\n---\nPlan.\n",
    )
    steps: list[Step] = [
        Reply(tool_calls=(task("planner", "plan it"),)),
        call("write_file", {"path": "plan.md", "content": "x"}, "w1"),
        Reply(text="could not write"),
        Reply(text="ok"),
    ]
    # The parent may do anything (full-auto); the child is read-only and has no shell.
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    offered = {t["function"]["name"] for t in bodies[1]["tools"]}
    assert {"exec_command", "write_stdin", "task"}.isdisjoint(offered)
    assert {"read_file", "write_file", "apply_patch"} <= offered
    assert "read-only" in tool_results(bodies[2])["w1"]
    assert not (tmp_path / "plan.md").exists()
