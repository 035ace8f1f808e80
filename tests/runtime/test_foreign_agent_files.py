"""Agent files of Codex (`.codex/agents/*.toml`), Gemini CLI (`.gemini/agents/*.md`) and opencode
(`.opencode/agent/*.md`) load as they are, next to Claude Code's, with their tool and model names mapped."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.test_subagent_definitions import TOOLS
from tests.runtime.test_subagents import call, run, task, tool_results
from vtcode.core.agents.definitions import known_names
from vtcode.instructions.agent_files import load_agents
from vtcode.protocol.events import Notice
from vtcode.testing.script import Reply, Step

CODEX_REVIEWER = '''name = "reviewer"
description = "PR reviewer focused on correctness, security, and missing tests."
model = "vendor-only-model-x"
model_reasoning_effort = "high"
sandbox_mode = "read-only"
nickname_candidates = ["Atlas", "Delta"]
developer_instructions = """
CODEX-INSTRUCTIONS: review like an owner.
Lead with concrete findings.
"""
'''


async def test_a_codex_toml_agent_runs_with_its_instructions_read_only_on_the_parents_model(
    tmp_path: Path,
) -> None:
    agents = tmp_path / ".codex" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.toml").write_text(CODEX_REVIEWER)
    steps: list[Step] = [
        Reply(tool_calls=(task("reviewer", "review the change in a.py"),)),
        call("write_file", {"path": "made.txt", "content": "x"}, "w1"),
        Reply(text="found nothing"),
        Reply(text="done"),
    ]
    reader, bodies = await run(tmp_path, tmp_path, steps, "go", approval="full-auto")
    offered = next(t for t in bodies[0]["tools"] if t["function"]["name"] == "task")
    assert "- reviewer: PR reviewer focused on correctness" in offered["function"]["description"]
    child = bodies[1]
    assert "CODEX-INSTRUCTIONS: review like an owner." in child["messages"][0]["content"]
    # Codex's model name is not one vtcode knows: the child runs on its parent's model, and says why.
    assert child["model"] == bodies[0]["model"]
    notices = [n.message for n in reader.of(Notice)]
    said = "model 'vendor-only-model-x' is not in the catalog; the parent's model is used"
    assert f"agents: {agents / 'reviewer.toml'}: {said}" in notices
    # `sandbox_mode = "read-only"`: the child cannot write, although its parent runs in full-auto.
    assert "read-only mode" in tool_results(bodies[2])["w1"]
    assert not (tmp_path / "made.txt").exists()


def test_a_codex_toml_without_instructions_is_skipped_with_its_file_named(tmp_path: Path) -> None:
    agents = tmp_path / ".codex" / "agents"
    agents.mkdir(parents=True)
    (agents / "empty.toml").write_text('name = "empty"\ndescription = "nothing"\n')
    (agents / "broken.toml").write_text('name = "broken\n')
    catalog = load_agents(tmp_path, tmp_path / "vt", None, known_tool=TOOLS, known_model=lambda _: False)
    assert "empty" not in catalog.agents
    assert [d.split(": skipped: ")[0] for d in catalog.diagnostics] == [
        str(agents / "broken.toml"),
        str(agents / "empty.toml"),
    ]
    assert "`developer_instructions` is missing" in catalog.diagnostics[1]


def test_gemini_and_opencode_agents_load_with_their_tool_names_mapped(tmp_path: Path) -> None:
    gemini = tmp_path / ".gemini" / "agents"
    gemini.mkdir(parents=True)
    (gemini / "scout.md").write_text(
        "---\nname: scout\ndescription: Finds things.\nkind: local\n"
        "tools:\n  - read_file\n  - grep_search\n  - run_shell_command\n  - mcp_github_*\n"
        "model: gemini-2.5-flash\nmax_turns: 7\ntimeout_mins: 5\n---\nGEMINI-PROMPT\n"
    )
    opencode = tmp_path / ".opencode" / "agent"
    opencode.mkdir(parents=True)
    (opencode / "docs-writer.md").write_text(
        "---\ndescription: Writes docs.\nmode: subagent\nmodel: anthropic/claude-sonnet-4-20250514\n"
        "temperature: 0.1\nmaxSteps: 4\ntools:\n  bash: false\n  write: true\n---\nOPENCODE-PROMPT\n"
    )
    (opencode / "build.md").write_text("---\ndescription: Main agent.\nmode: primary\n---\nBuild.\n")
    tools = known_names(
        {"read_file", "grep_files", "list_files", "exec_command", "write_stdin", "write_file"}
    )
    catalog = load_agents(tmp_path, tmp_path / "vt", None, known_tool=tools, known_model=lambda _: False)
    scout = catalog.agents["scout"]
    assert (scout.tools, scout.max_turns, scout.model, scout.prompt) == (
        ("read_file", "grep_files", "exec_command", "write_stdin"),
        7,
        None,
        "GEMINI-PROMPT",
    )
    writer = catalog.agents["docs-writer"]
    assert (writer.tools, writer.disallowed_tools, writer.max_turns, writer.prompt) == (
        None,
        ("exec_command", "write_stdin"),
        4,
        "OPENCODE-PROMPT",
    )
    assert "build" not in catalog.agents
    assert any(str(opencode / "build.md") in d and "mode: primary" in d for d in catalog.diagnostics)


def test_a_claude_code_agent_keeps_webfetch_and_skill(tmp_path: Path) -> None:
    agents = tmp_path / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "researcher.md").write_text(
        "---\nname: researcher\ndescription: Researches.\ntools: Read, WebFetch, Skill\n---\nResearch.\n"
    )
    tools = known_names({"read_file", "web_fetch", "skill"})
    catalog = load_agents(tmp_path, tmp_path / "vt", None, known_tool=tools, known_model=lambda _: False)
    assert catalog.agents["researcher"].tools == ("read_file", "web_fetch", "skill")
    assert catalog.diagnostics == ()
