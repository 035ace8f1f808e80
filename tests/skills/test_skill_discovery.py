"""Where skills and commands are found, which one wins, and what a bad file does (nothing else lost)."""

from __future__ import annotations

import os
from pathlib import Path

from tests.skills.helpers import discover_in, repo, write_skill
from vtcode.core.instructions.model import Diagnostic


def test_agents_beats_claude_in_a_project_and_project_beats_user(tmp_path: Path) -> None:
    root = repo(tmp_path)
    claude = write_skill(root / ".claude/skills", "x", "from claude")
    agents = write_skill(root / ".agents/skills", "x", "from agents")
    user = write_skill(tmp_path / "H/.agents/skills", "x", "from the user")
    found = discover_in(tmp_path)
    assert found.skills["x"].description == "from agents"
    assert found.skills["x"].scope == "project"
    shadowed = [d for d in found.diagnostics if "shadowed" in d.reason]
    assert shadowed == [
        Diagnostic(str(claude), "warning", f"skill `x` is shadowed by skill {agents}"),
        Diagnostic(str(user), "warning", f"skill `x` is shadowed by skill {agents}"),
    ]


def test_vtcode_folder_wins_and_the_nearest_folder_wins(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".vtcode/skills", "a", "vtcode")
    write_skill(root / ".agents/skills", "a", "agents")
    write_skill(root / ".agents/skills", "b", "root")
    sub = root / "pkg"
    write_skill(sub / ".claude/skills", "b", "nearest")
    found = discover_in(tmp_path, workspace=sub)
    assert (found.skills["a"].description, found.skills["b"].description) == ("vtcode", "nearest")


def test_user_folders_and_their_order(tmp_path: Path) -> None:
    home = tmp_path / "H"
    write_skill(home / ".vtcode/skills", "u", "vtcode home")
    write_skill(home / ".claude/skills", "u", "claude home")
    write_skill(home / ".claude/skills", "c", "only claude")
    found = discover_in(tmp_path)
    assert {n: s.description for n, s in found.skills.items()} == {"u": "vtcode home", "c": "only claude"}
    assert {s.source for s in found.skills.values()} == {"$VTCODE_HOME/skills", "~/.claude/skills"}


def test_unquoted_colon_loads_and_missing_description_is_skipped(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "pdf", "Use when: PDFs")
    bare = root / ".agents/skills/bare/SKILL.md"
    bare.parent.mkdir(parents=True)
    bare.write_text("---\nname: bare\n---\nNo description.\n")
    found = discover_in(tmp_path)
    assert found.skills["pdf"].description == "Use when: PDFs"
    assert "bare" not in found.skills
    assert Diagnostic(str(bare), "error", "no `description`: the skill is skipped") in found.diagnostics


def test_bad_files_are_diagnostics_and_the_good_skill_still_loads(tmp_path: Path) -> None:
    root = repo(tmp_path)
    folder = root / ".agents/skills"
    write_skill(folder, "good", "Still here.")
    (folder / "binary").mkdir()
    (folder / "binary/SKILL.md").write_bytes(b"---\nname: binary\x00\x01\x02\n---\n")
    (folder / "huge").mkdir()
    (folder / "huge/SKILL.md").write_text(
        "---\nname: huge\ndescription: big\n---\n" + "x" * (5 * 1024 * 1024)
    )
    (folder / "broken").mkdir()
    (folder / "broken/SKILL.md").write_text("---\nname: broken\n{[ not yaml\n---\nBody\n")
    os.symlink(folder, folder / "good" / "loop")  # a folder that contains itself
    write_skill(tmp_path / "H/.agents/skills", "good", "A second skill of the same name.")
    found = discover_in(tmp_path)
    assert list(found.skills) == ["good"]
    assert found.skills["good"].description == "Still here."
    reasons = {Path(d.path).parent.name: d.reason for d in found.diagnostics}
    assert reasons["binary"] == "a binary file, not markdown"
    assert reasons["huge"].startswith("too large (")
    assert reasons["broken"].startswith("frontmatter is not valid YAML")
    assert any("shadowed" in d.reason for d in found.diagnostics)


def test_a_symlink_loop_in_a_skills_folder_ends(tmp_path: Path) -> None:
    root = repo(tmp_path)
    folder = root / ".claude/skills"
    (folder / "group").mkdir(parents=True)
    os.symlink(folder, folder / "group" / "back")
    write_skill(folder / "group", "deep", "Nested one level.")
    found = discover_in(tmp_path)
    assert list(found.skills) == ["deep"]
    assert any(d.reason == "a symlink loop: folder visited already" for d in found.diagnostics)


def test_unknown_keys_and_a_name_mismatch_are_reported_but_load(tmp_path: Path) -> None:
    root = repo(tmp_path)
    path = write_skill(root / ".agents/skills", "Bad_Name", "ok", colour="blue")
    found = discover_in(tmp_path)
    assert "Bad_Name" in found.skills
    reasons = [d.reason for d in found.diagnostics if d.path == str(path)]
    assert "unknown key `colour` ignored" in reasons
    assert any(r.startswith("the name may hold only lowercase") for r in reasons)


def test_commands_from_every_source_with_namespaces(tmp_path: Path) -> None:
    root = repo(tmp_path)
    home = tmp_path / "H"
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/fix.md").write_text("Fix $0 then $1\n")
    (root / ".gemini/commands/git").mkdir(parents=True)
    (root / ".gemini/commands/git/commit.toml").write_text('description = "Commit"\nprompt = "!{git diff}"\n')
    (root / ".vtcode/commands/db").mkdir(parents=True)
    (root / ".vtcode/commands/db/migrate.md").write_text("---\nargument-hint: NAME\n---\nMigrate $0\n")
    (home / ".codex/prompts").mkdir(parents=True)
    (home / ".codex/prompts/r.md").write_text("Review $1\n")
    found = discover_in(tmp_path)
    styles = {name: (c.style, c.scope) for name, c in found.commands.items()}
    assert styles == {
        "fix": ("claude", "project"),
        "git:commit": ("gemini", "project"),
        "db:migrate": ("claude", "project"),
        "r": ("codex", "user"),
    }
    assert found.commands["db:migrate"].argument_hint == "NAME"
    assert found.commands["git:commit"].description == "Commit"


def test_a_skill_wins_over_a_command_of_the_same_name(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "deploy", "Deploys.")
    (root / ".claude/commands").mkdir(parents=True)
    (root / ".claude/commands/deploy.md").write_text("old command\n")
    found = discover_in(tmp_path)
    assert "deploy" not in found.commands
    assert found.skills["deploy"].kind == "skill"
    assert any(d.reason.startswith("command `deploy` is shadowed by skill") for d in found.diagnostics)


def test_the_walk_stops_after_2000_folders_and_says_so(tmp_path: Path) -> None:
    root = repo(tmp_path)
    folder = root / ".agents/skills"
    write_skill(folder, "aaa", "Found before the bound.")
    for number in range(2100):
        (folder / "zz-noise" / f"d{number:04d}").mkdir(parents=True)
    found = discover_in(tmp_path)
    assert list(found.skills) == ["aaa"]
    bound = [d for d in found.diagnostics if d.reason == "more than 2000 folders: the rest is skipped"]
    assert len(bound) == 1
