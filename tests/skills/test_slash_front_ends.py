"""`/name args` from the other front ends: `vtcode exec "/name args"` and an ACP prompt."""

from __future__ import annotations

from pathlib import Path

from acp import text_block

from tests.acp.harness import acp_agent
from tests.conftest import VtcodeRunner
from tests.skills.helpers import repo, write_skill
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_env, server_for


def test_exec_expands_a_slash_command(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/fix.md").write_text("Fix issue $0 on branch $1")
    with server_for("chat", [Reply(text="fixed")]) as server:
        result = vtcode.run(
            "exec", "--provider", "openai", '/fix 12 "feature x"', cwd=root, env=cli_env("chat", server)
        )
        sent = server.requests[0].json()["messages"][-1]["content"]
    assert result.code == 0, result.stderr
    assert sent == "Fix issue 12 on branch feature x"


def test_help_man_completions_and_readme_agree_on_vtcode_skills(vtcode: VtcodeRunner) -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    assert "| `vtcode skills list [--json]` / `vtcode skills new NAME [--user]` |" in readme
    assert "list the skills and custom commands" in vtcode.run("--help").stdout
    for shell in ("bash", "zsh", "fish"):
        completions = vtcode.run("completions", shell).stdout
        assert "skills" in completions
        assert "--json" in completions
    man = vtcode.run("man").stdout
    assert "skills" in man
    listed = vtcode.run("skills", "--help").stdout
    for action in ("list", "new"):
        assert action in listed
        assert f"vtcode skills {action}" in readme
    assert "--user" in vtcode.run("skills", "new", "--help").stdout


async def test_an_acp_prompt_runs_a_skill_by_slash_name(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "review", "Reviews a diff.", "Review $ARGUMENTS carefully.\n")
    with server_for("chat", [Reply(text="reviewed")]) as server:
        async with acp_agent(vtcode, root, server) as agent:
            await agent.conn.initialize(protocol_version=1)
            session = await agent.conn.new_session(cwd=str(root), mcp_servers=[])
            done = await agent.conn.prompt(
                session_id=session.session_id, prompt=[text_block("/review src/app.py")]
            )
            assert done.stop_reason == "end_turn"
        sent = server.requests[0].json()["messages"][-1]["content"]
    assert sent.startswith('<skill_content name="review">\nReview src/app.py carefully.')


def test_exec_reads_the_command_name_up_to_any_whitespace(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/fix.md").write_text("Fix issue $ARGUMENTS")
    with server_for("chat", [Reply(text="fixed"), Reply(text="fixed")]) as server:
        env = cli_env("chat", server)
        spaced = vtcode.run("exec", "--provider", "openai", "/ fix 12", cwd=root, env=env)
        newline = vtcode.run("exec", "--provider", "openai", "/fix\n12 and 13", cwd=root, env=env)
        sent = [request.json()["messages"][-1]["content"] for request in server.requests]
    assert spaced.code == 0, spaced.stderr
    assert newline.code == 0, newline.stderr
    assert sent == ["Fix issue 12", "Fix issue 12 and 13"]


def test_exec_loads_a_skill_named_with_a_dollar_as_codex_does(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "review", "Reviews a diff.", "Check the tests first.\n")
    write_skill(
        root / ".agents/skills",
        "deploy",
        "Deploys.",
        "Never on Fridays.\n",
        **{"disable-model-invocation": "true"},
    )
    prompt = "use $review then $deploy; $HOME and $5 stay text, $nothing too"
    with server_for("chat", [Reply(text="ok")]) as server:
        result = vtcode.run("exec", "--provider", "openai", prompt, cwd=root, env=cli_env("chat", server))
        messages = server.requests[0].json()["messages"]
    assert result.code == 0, result.stderr
    assert messages[-1] == {"role": "user", "content": prompt}
    assert messages[-3]["content"].startswith('<skill_content name="review">\nCheck the tests first.\n')
    assert messages[-2]["content"].startswith('<skill_content name="deploy">\nNever on Fridays.\n')
    assert "skill loaded: review ($review)" in result.stderr


def test_exec_runs_a_namespaced_command_by_its_own_name_when_only_one_has_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    commands = root / ".claude/commands"
    for folder in ("frontend", "backend"):
        (commands / folder).mkdir(parents=True)
        (commands / folder / "test.md").write_text(f"Test the {folder}")
    (commands / "frontend/component.md").write_text("Make component $ARGUMENTS")
    with server_for("chat", [Reply(text="ok"), Reply(text="ok")]) as server:
        env = cli_env("chat", server)
        short = vtcode.run("exec", "--provider", "openai", "/component Button", cwd=root, env=env)
        ambiguous = vtcode.run("exec", "--provider", "openai", "/test", cwd=root, env=env)
        sent = [request.json()["messages"][-1]["content"] for request in server.requests]
    assert short.code == 0, short.stderr
    assert ambiguous.code == 0, ambiguous.stderr
    assert sent == ["Make component Button", "/test"]


def test_exec_says_when_a_slash_name_is_no_skill_or_command(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "review", "Reviews a diff.")
    write_skill(root / ".agents/skills", "style", "House style.", **{"user-invocable": "false"})
    with server_for("chat", [Reply(text="ok"), Reply(text="ok"), Reply(text="ok")]) as server:
        env = cli_env("chat", server)
        typo = vtcode.run("exec", "--provider", "openai", "/reveiw 12", cwd=root, env=env)
        tui_only = vtcode.run("exec", "--provider", "openai", "/skills", cwd=root, env=env)
        model_only = vtcode.run("exec", "--provider", "openai", "/style", cwd=root, env=env)
        sent = [request.json()["messages"][-1]["content"] for request in server.requests]
    assert typo.code == 0, typo.stderr
    assert "no skill or command named /reveiw (did you mean /review?); the text was sent" in typo.stderr
    assert (
        "/skills is a command of the terminal UI; the text was sent to the model as typed" in tui_only.stderr
    )
    assert "/style: the skill says `user-invocable: false` (only the model loads it)" in model_only.stderr
    assert sent == ["/reveiw 12", "/skills", "/style"]


def test_exec_says_when_a_command_numbered_from_one_loses_its_first_argument(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/review-pr.md").write_text(
        "---\nmodel: haiku\n---\nReview PR #$1 with priority $2\n"
    )
    with server_for("chat", [Reply(text="ok")]) as server:
        result = vtcode.run(
            "exec", "--provider", "openai", "/review-pr 456 high", cwd=root, env=cli_env("chat", server)
        )
        sent = server.requests[0].json()["messages"][-1]["content"]
    assert result.code == 0, result.stderr
    assert sent == "Review PR #high with priority \n"  # Claude Code's numbering: `$1` is the second
    assert "/review-pr: `$1` is argument 2: arguments count from `$0`" in result.stderr
    assert "`model` is not applied" not in result.stderr  # a note for `skills list`, not each session
