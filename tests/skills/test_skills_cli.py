"""`vtcode skills list` and `vtcode skills new`, run as the real program."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.skills.helpers import FIXTURES, repo, write_skill
from vtcode.core.definitions.model import standard_problems


def test_skills_new_scaffolds_a_skill_that_follows_the_standard(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    result = vtcode.run("skills", "new", "pdf-tools", cwd=root)
    assert result.code == 0, result.stderr
    skill = root / ".vtcode/skills/pdf-tools"
    assert standard_problems((skill / "SKILL.md").read_text(), "pdf-tools") == []
    assert sorted(p.relative_to(skill).as_posix() for p in skill.rglob("*") if p.is_file()) == [
        "SKILL.md",
        "references/notes.md",
        "scripts/run.sh",
    ]
    listed = json.loads(vtcode.run("skills", "list", "--json", cwd=root).stdout)
    assert [(d["name"], d["catalog"]) for d in listed["definitions"]] == [("pdf-tools", "listed")]


def test_the_standard_check_rejects_what_the_standard_rejects() -> None:
    text = (FIXTURES / "release-notes/SKILL.md").read_text()
    assert standard_problems(text, "release-notes") == ["unexpected fields: argument-hint, when_to_use"]
    assert standard_problems((FIXTURES / "pdf-forms/SKILL.md").read_text(), "pdf-forms") == []
    assert "the name `x` must equal the folder name `y`" in standard_problems(
        "---\nname: x\ndescription: d\n---\n", "y"
    )


def test_skills_new_refuses_a_bad_name_and_an_existing_folder(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    bad = vtcode.run("skills", "new", "Bad--Name", cwd=root)
    assert bad.code == 2
    assert "lowercase letters, digits and single inner hyphens" in bad.stderr
    assert vtcode.run("skills", "new", "ok", cwd=root).code == 0
    again = vtcode.run("skills", "new", "ok", cwd=root)
    assert again.code == 2
    assert "already exists" in again.stderr


def test_skills_list_reports_truncated_and_omitted_catalog_entries(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    for number in range(200):
        write_skill(
            root / ".agents/skills", f"skill-{number:03d}", f"Handles task {number}. " + "detail " * 30
        )
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/fix.md").write_text("---\nargument-hint: ISSUE\n---\nFix $0\n")
    result = vtcode.run("skills", "list", "--json", cwd=root)
    assert result.code == 0, result.stderr
    report = json.loads(result.stdout)
    catalog = report["catalog"]
    assert catalog["used_chars"] <= catalog["budget_chars"]
    assert catalog["listed"] + len(catalog["omitted"]) == 200
    assert len(catalog["truncated"]) + len(catalog["omitted"]) > 0
    states = {d["catalog"] for d in report["definitions"] if d["kind"] == "skill"}
    assert states <= {"listed", "truncated", "omitted"}
    fix = next(d for d in report["definitions"] if d["name"] == "fix")
    assert (fix["kind"], fix["argument_hint"], fix["source"]) == ("command", "ISSUE", ".claude/commands")
    text = vtcode.run("skills", "list", cwd=root).stdout
    truncated, omitted = len(catalog["truncated"]), len(catalog["omitted"])
    assert f"{truncated} truncated, {omitted} omitted" in text
    assert "/fix ISSUE  [command, .claude/commands, command]  Fix $0" in text


def test_a_skill_shadowed_by_the_project_is_reported(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "x", "project")
    home = Path(vtcode.env()["HOME"])
    user = write_skill(home / ".agents/skills", "x", "user")
    report = json.loads(vtcode.run("skills", "list", "--json", cwd=root).stdout)
    assert {
        "path": str(user),
        "severity": "warning",
        "reason": f"skill `x` is shadowed by skill {root / '.agents/skills/x/SKILL.md'}",
    } in report["diagnostics"]


def test_a_workspace_config_cannot_add_skill_folders(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "vtcode.toml").write_text('[skills]\npaths = ["/elsewhere"]\n')
    result = vtcode.run("skills", "list", cwd=root)
    assert result.code == 2
    assert "skills.paths: a workspace config cannot add skill folders" in result.stderr


def test_skill_paths_from_the_user_file_are_searched(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    home = Path(vtcode.env()["HOME"])
    write_skill(tmp_path / "shared-skills", "team-style", "The team's style.")
    (home / ".vtcode").mkdir(parents=True, exist_ok=True)
    (home / ".vtcode/vtcode.toml").write_text(f'[skills]\npaths = ["{tmp_path / "shared-skills"}"]\n')
    report = json.loads(vtcode.run("skills", "list", "--json", cwd=root).stdout)
    assert [(d["name"], d["source"]) for d in report["definitions"]] == [("team-style", "skills.paths")]


def test_vtcode_prompt_shows_the_catalog_in_the_appendix(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "pdf-forms", "Fill PDF forms.")
    shown = vtcode.run("prompt", "--json", cwd=root)
    assert shown.code == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert "<skill><name>pdf-forms</name><description>Fill PDF forms.</description>" in report["appendix"]
    assert "available_skills" not in report["static"]
    bare = vtcode.run("prompt", "--json", cwd=tmp_path)
    assert bare.code == 0, bare.stderr
    empty = json.loads(bare.stdout)
    assert "available_skills" not in empty["appendix"]
    assert empty["cache_key"] != report["cache_key"]  # the `skill` tool joins the cached prefix


def test_skills_list_shows_the_paths_a_skill_loads_for(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "ts-style", "TypeScript style.", paths='"src/**/*.py, *.{ts,tsx}"')
    write_skill(root / ".agents/skills", "plain", "No paths.")
    report = json.loads(vtcode.run("skills", "list", "--json", cwd=root).stdout)
    paths = {d["name"]: d["paths"] for d in report["definitions"]}
    assert paths == {"plain": [], "ts-style": ["src/**/*.py", "*.{ts,tsx}"]}
    text = vtcode.run("skills", "list", cwd=root).stdout
    assert (
        "/ts-style  [skill, .agents/skills, listed, paths: src/**/*.py, *.{ts,tsx}]  TypeScript style."
        in text
    )
    assert "/plain  [skill, .agents/skills, listed]  No paths." in text


def test_skills_list_names_a_command_ignored_for_a_built_in_name(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/clear.md").write_text("Clear the decks")
    (root / ".claude/commands/deploy.md").write_text("Deploy it")
    result = vtcode.run("skills", "list", cwd=root)
    assert result.code == 0, result.stderr
    assert "/deploy" in result.stdout
    assert (
        f"warning: {root / '.claude/commands/clear.md'}: ignored: /clear is a built-in command"
        in result.stdout
    )
    listed = json.loads(vtcode.run("skills", "list", "--json", cwd=root).stdout)
    assert [d["name"] for d in listed["definitions"]] == ["deploy"]
    assert any(d["path"].endswith("clear.md") and "built-in" in d["reason"] for d in listed["diagnostics"])


def test_claude_code_argument_hints_in_brackets_are_listed_as_written(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    commands = root / ".claude/commands"
    (commands / "git").mkdir(parents=True)
    # Claude Code's own examples: strict YAML reads the first as a list and rejects the second.
    (commands / "git/commit.md").write_text("---\nargument-hint: [message]\n---\nCommit: $ARGUMENTS\n")
    (commands / "review.md").write_text(
        "---\nargument-hint: [pr-number] [priority] [assignee]\ndescription: Review a PR\n---\n$ARGUMENTS\n"
    )
    result = vtcode.run("skills", "list", cwd=root)
    assert result.code == 0, result.stderr
    assert "/git:commit [message]  [command, .claude/commands, command]" in result.stdout
    assert "/review [pr-number] [priority] [assignee]  [command, .claude/commands, command]" in result.stdout
    listed = json.loads(vtcode.run("skills", "list", "--json", cwd=root).stdout)
    hints = {d["name"]: d["argument_hint"] for d in listed["definitions"]}
    assert hints == {"git:commit": "[message]", "review": "[pr-number] [priority] [assignee]"}


def test_skills_list_warns_about_claude_code_keys_and_numbering_it_does_not_follow(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    root = repo(tmp_path)
    commands = root / ".claude/commands"
    commands.mkdir(parents=True)
    (commands / "cheap.md").write_text("---\nmodel: claude-3-5-haiku-20241022\n---\nSummarize $ARGUMENTS\n")
    (commands / "old.md").write_text("Review PR #$1 with priority $2\n")
    (commands / "fresh.md").write_text("Review PR #$0 with priority $1\n")
    write_skill(root / ".agents/skills", "forked", "Runs apart.", context="fork", effort="high")
    result = vtcode.run("skills", "list", cwd=root)
    assert result.code == 0, result.stderr
    out = result.stdout
    assert f"info: {commands / 'cheap.md'}: `model` is not applied: it runs with the session's model" in out
    assert (
        f"info: {commands / 'old.md'}: `$1` is argument 2: arguments count from `$0` (Claude Code's rule)"
        in out
    )
    assert str(commands / "fresh.md") not in out
    skill = root / ".agents/skills/forked/SKILL.md"
    assert f"warning: {skill}: `context: fork` is not applied: it runs in the conversation" in out
    assert f"warning: {skill}: unknown key `effort` ignored" in out
