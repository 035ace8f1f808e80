"""Discovery and ordering: reference section 9, cases 17-25 and 43-44."""

from __future__ import annotations

import os
from pathlib import Path

from tests.instructions.helpers import bodies, instruction_map, make_layout, reasons
from vtcode.instructions import InstructionOptions, find_project_root, load_instructions


def test_empty_repository_has_no_appendix(tmp_path: Path) -> None:
    result = make_layout(tmp_path).load()
    assert result.appendix is None
    assert result.sources == ()
    assert result.diagnostics == ()


def test_ancestors_only(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    for folder, text in [("", "root"), ("a/", "a"), ("a/b/", "ab"), ("a/b/c/", "abc")]:
        layout.write(f"{folder}AGENTS.md", text)
    result = layout.load(["a/b"])
    assert instruction_map(result) == [
        "AGENTS.md (workspace AGENTS)",
        "a/AGENTS.md (workspace AGENTS)",
        "a/b/AGENTS.md (workspace AGENTS)",
    ]
    assert bodies(result) == ["root", "a", "ab"]


def test_agents_and_claude_per_folder(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    for name in ("AGENTS.md", "CLAUDE.md", "src/AGENTS.md", "src/CLAUDE.md"):
        layout.write(name, f"- {name}")
    result = layout.load(["src"])
    assert instruction_map(result) == [
        "AGENTS.md (workspace AGENTS)",
        "CLAUDE.md (workspace CLAUDE)",
        "src/AGENTS.md (workspace AGENTS)",
        "src/CLAUDE.md (workspace CLAUDE)",
    ]
    assert [s.kind for s in result.sources] == ["agents", "claude", "agents", "claude"]


def test_override_file_shadows_agents(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.override.md", "O")
    layout.write("AGENTS.md", "A")
    layout.write("CLAUDE.md", "C")
    result = layout.load()
    assert bodies(result) == ["O", "C"]
    assert reasons(result) == [("AGENTS.md", "warning", "shadowed by AGENTS.override.md; not loaded")]


def test_fallback_names(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("TEAM.md", "T")
    layout.write("x/AGENTS.md", "X")
    layout.write("x/TEAM.md", "XT")
    result = layout.load(["x"], fallback_filenames=("TEAM.md",))
    assert instruction_map(result) == ["TEAM.md (workspace AGENTS)", "x/AGENTS.md (workspace AGENTS)"]
    assert "XT" not in bodies(result)


def test_active_dir_outside_root_is_treated_as_root(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "root")
    layout.write("a/AGENTS.md", "a")
    outside = tmp_path / "elsewhere"
    (outside / "a").mkdir(parents=True)
    options = InstructionOptions.for_workspace(
        layout.root, vtcode_home=layout.vtcode_home, project_root=layout.root
    )
    result = load_instructions(options, [str(outside / "a")])
    assert bodies(result) == ["root"]


def test_missing_active_path_keeps_every_source(tmp_path: Path) -> None:
    # [decide] The original drops all project docs for a missing active folder; SPEC section 5
    # (decision 2) never lets one bad input drop the others: the nearest existing folder counts.
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "root")
    layout.write("a/AGENTS.md", "a")
    result = layout.load(["a/deleted/file.py"])
    assert bodies(result) == ["root", "a"]


def test_user_tier(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.user("AGENTS.md", "h")
    layout.user(".vtcode/AGENTS.override.md", "lo")
    layout.user(".vtcode/AGENTS.md", "l")
    layout.user("CLAUDE.md", "not a user source")
    layout.write("AGENTS.md", "r")
    result = layout.load()
    assert bodies(result) == ["h", "lo", "l", "r"]
    assert instruction_map(result) == [
        "~/AGENTS.md (user AGENTS)",
        "~/.vtcode/AGENTS.override.md (user AGENTS)",
        "~/.vtcode/AGENTS.md (user AGENTS)",
        "AGENTS.md (workspace AGENTS)",
    ]


def test_user_config_folder_is_a_user_root(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.user(".config/vtcode/AGENTS.md", "cfg")
    assert instruction_map(layout.load()) == ["~/.config/vtcode/AGENTS.md (user AGENTS)"]


def test_dedup_by_real_path(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("CLAUDE.md", "- shared")
    os.symlink("CLAUDE.md", layout.root / "AGENTS.md")
    result = layout.load()
    assert instruction_map(result) == ["CLAUDE.md (workspace CLAUDE)"]
    assert result.diagnostics == ()


def test_git_root_at_home_lists_home_agents_once(tmp_path: Path) -> None:
    layout = make_layout(tmp_path, git=False)
    (layout.home / ".git").mkdir()
    layout.user("AGENTS.md", "h")
    result = layout.load(workspace=layout.home)
    assert [(s.text, s.label) for s in result.sources] == [("h", "user AGENTS")]


def test_extra_instruction_files(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("docs/b.md", "b")
    layout.write("docs/a.md", "a")
    layout.write("AGENTS.md", "r")
    layout.user(".vtcode/AGENTS.md", "u")
    result = layout.load(extra_patterns=("docs/*.md",))
    assert instruction_map(result) == [
        "~/.vtcode/AGENTS.md (user AGENTS)",
        "docs/a.md (custom extra instructions)",
        "docs/b.md (custom extra instructions)",
        "AGENTS.md (workspace AGENTS)",
    ]
    assert [s.scope for s in result.sources] == ["user", "custom", "custom", "workspace"]


def test_extra_pattern_without_match_adds_nothing(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "r")
    result = layout.load(extra_patterns=("nomatch/*.md",))
    assert bodies(result) == ["r"]
    assert reasons(result) == [("nomatch/*.md", "warning", "agent.instruction_files entry matches no file")]


def test_extra_files_accept_braces_and_home(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("docs/a.md", "a")
    layout.write("docs/b.txt", "b")
    layout.write("docs/c.rst", "c")
    layout.user("notes/team.md", "t")
    result = layout.load(extra_patterns=("docs/*.{md,txt}", "~/notes/team.md"))
    assert bodies(result) == ["a", "b", "t"]


def test_git_file_marks_the_root(tmp_path: Path) -> None:
    layout = make_layout(tmp_path, git=False)
    (layout.root / ".git").write_text("gitdir: /elsewhere/.git/worktrees/r\n")
    layout.write("../AGENTS.md", "above the root")
    layout.write("AGENTS.md", "root")
    layout.write("a/b/AGENTS.md", "ab")
    workspace = layout.root / "a" / "b"
    assert find_project_root(workspace) == layout.root
    result = layout.load(workspace=workspace)
    assert bodies(result) == ["root", "ab"]


def test_without_git_the_workspace_is_the_root(tmp_path: Path) -> None:
    # [decide] The original walks up to `/` without a `.git`; SPEC section 5 decision 1 stops at the
    # workspace, so instruction files above it are never read and imports cannot leave it.
    layout = make_layout(tmp_path, git=False)
    workspace = layout.root / "project"
    layout.write("AGENTS.md", "above the workspace")
    layout.write("project/AGENTS.md", "workspace\n\n@../AGENTS.md")
    assert find_project_root(workspace) == workspace.resolve()
    result = layout.load(workspace=workspace)
    assert bodies(result) == ["workspace\n\n@../AGENTS.md"]
    assert reasons(result) == [
        (
            "AGENTS.md",
            "warning",
            "import @../AGENTS.md is outside the project and the vtcode config folders; not loaded",
        )
    ]


def test_workspace_below_the_project_root_loads_the_chain_to_it(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "root")
    layout.write("pkg/AGENTS.md", "pkg")
    layout.write("other/AGENTS.md", "other")
    result = layout.load(workspace=layout.root / "pkg")
    assert instruction_map(result) == ["AGENTS.md (workspace AGENTS)", "pkg/AGENTS.md (workspace AGENTS)"]
