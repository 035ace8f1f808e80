"""Rule files: reference section 9, cases 26-32, and the cross-tool folders of SPEC section 5 decision 8."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.instructions.helpers import bodies, instruction_map, make_layout, reasons


def test_rule_ordering(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    for name in ("b.md", "a.md", "README.md", "Notes.MD", "sub/c.md"):
        layout.write(f".vtcode/rules/{name}", f"- {name}")
    result = layout.load()
    assert instruction_map(result) == [
        ".vtcode/rules/a.md (workspace rule)",
        ".vtcode/rules/b.md (workspace rule)",
        ".vtcode/rules/sub/c.md (workspace rule)",
    ]


def test_matched_rules_by_specificity(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("src/lib.rs", "fn main() {}")
    layout.write(".vtcode/rules/always.md", "- always")
    layout.write(".vtcode/rules/src.md", '---\npaths: ["src/**/*.rs"]\n---\n- src')
    layout.write(".vtcode/rules/gen.md", '---\npaths: ["**/*.rs"]\n---\n- gen')
    layout.write(".vtcode/rules/ts.md", '---\npaths: ["**/*.ts"]\n---\n- ts')
    result = layout.load(["src/lib.rs"])
    assert instruction_map(result) == [
        ".vtcode/rules/always.md (workspace rule)",
        ".vtcode/rules/gen.md (workspace matched rule)",
        ".vtcode/rules/src.md (workspace matched rule)",
    ]
    assert [s.matched_by for s in result.sources] == [(), ("**/*.rs",), ("src/**/*.rs",)]
    assert reasons(result) == [
        (".vtcode/rules/ts.md", "warning", "paths `**/*.ts` never match a file in the workspace")
    ]


def test_without_active_paths_no_scoped_rule_applies(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("src/lib.rs", "fn main() {}")
    layout.write(".vtcode/rules/gen.md", '---\npaths: ["**/*.rs"]\n---\n- gen')
    result = layout.load()
    assert result.sources == ()
    # It matches a file that exists: not a never-matching rule, only one that does not apply yet.
    assert reasons(result) == [
        (".vtcode/rules/gen.md", "info", "paths `**/*.rs` match none of the active paths; not loaded")
    ]


def test_empty_paths_and_unclosed_frontmatter_are_unconditional(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write(".vtcode/rules/a.md", "---\npaths: []\n---\n- empty paths")
    layout.write(".vtcode/rules/b.md", "---\npaths: ['x/**']\n- never closed")
    result = layout.load()
    assert bodies(result) == ["- empty paths", "---\npaths: ['x/**']\n- never closed"]


def test_frontmatter_is_stripped_from_rules_only(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "---\ntitle: kept\n---\n- agents body")
    layout.write(".vtcode/rules/r.md", "---\ndescription: dropped\n---\n- rule body")
    result = layout.load()
    assert bodies(result) == ["---\ntitle: kept\n---\n- agents body", "- rule body"]


def test_user_rules_come_first_and_home_rules_are_not_read(tmp_path: Path) -> None:
    # [decide] The original also reads `~/rules`; SPEC section 5 decision 5 drops it: user rules live
    # in $VTCODE_HOME/rules and ~/.config/vtcode/rules.
    layout = make_layout(tmp_path)
    layout.user(".vtcode/rules/u.md", "- u")
    layout.user(".config/vtcode/rules/c.md", "- c")
    layout.user("rules/x.md", "- x")
    layout.write("AGENTS.md", "- r")
    result = layout.load()
    assert instruction_map(result) == [
        "~/.config/vtcode/rules/c.md (user rule)",
        "~/.vtcode/rules/u.md (user rule)",
        "AGENTS.md (workspace AGENTS)",
    ]


def test_user_rule_globs_match_workspace_paths(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("app/main.py", "")
    layout.user(".vtcode/rules/py.md", "---\npaths: '**/*.py'\n---\n- py")
    result = layout.load(["app/main.py"])
    assert instruction_map(result) == ["~/.vtcode/rules/py.md (user matched rule)"]


def test_rules_of_subfolders_are_not_read(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("pkg/.vtcode/rules/p.md", "- p")
    assert layout.load(["pkg"]).sources == ()


def test_rules_of_the_workspace_are_read_when_it_is_below_the_root(tmp_path: Path) -> None:
    # SPEC section 5 decision 5: rule folders at the project root and, when different, the workspace.
    layout = make_layout(tmp_path)
    layout.write(".vtcode/rules/root.md", "- root")
    layout.write("pkg/.vtcode/rules/p.md", "- p")
    layout.write("pkg/src/a.py", "")
    layout.write("pkg/.vtcode/rules/scoped.md", "---\npaths: src/*.py\n---\n- scoped")
    result = layout.load(["src/a.py"], workspace=layout.root / "pkg")
    assert instruction_map(result) == [
        ".vtcode/rules/root.md (workspace rule)",
        "pkg/.vtcode/rules/p.md (workspace rule)",
        "pkg/.vtcode/rules/scoped.md (workspace matched rule)",
    ]


@pytest.mark.parametrize(
    "frontmatter",
    [
        "paths: src/**/*.ts",
        "paths: **/*.ts",
        'paths: "**/*.ts"',
        "paths:\n  - **/*.ts",
        "paths: [src/*.ts, lib/*.ts]",
        "globs: *.ts,*.tsx",
        'applyTo: "**/*.ts,**/*.tsx"',
        "paths: src/**/*.{ts,tsx}",
    ],
)
def test_scoping_keys_and_forms_are_accepted(tmp_path: Path, frontmatter: str) -> None:
    layout = make_layout(tmp_path)
    layout.write("src/a.ts", "")
    layout.write(".vtcode/rules/ts.md", f"---\n{frontmatter}\n---\n- ts")
    result = layout.load(["src/a.ts"])
    assert instruction_map(result) == [".vtcode/rules/ts.md (workspace matched rule)"]
    assert result.diagnostics == ()


def test_cross_tool_rule_folders(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("web/app.ts", "")
    layout.write(".claude/rules/style.md", "- claude always")
    layout.write(".claude/rules/api/ts.md", "---\npaths:\n  - 'web/**/*.ts'\n---\n- claude ts")
    layout.write(".cursor/rules/always.mdc", "---\nalwaysApply: true\n---\n- cursor always")
    layout.write(".cursor/rules/ts.mdc", "---\nglobs: web/*.ts\nalwaysApply: false\n---\n- cursor ts")
    layout.write(".cursor/rules/manual.mdc", "---\ndescription: only when asked\n---\n- manual")
    layout.write(".github/instructions/ts.instructions.md", "---\napplyTo: '**/*.ts'\n---\n- copilot ts")
    layout.write(".github/instructions/all.instructions.md", "---\napplyTo: '**'\n---\n- copilot all")
    layout.write(".github/instructions/none.instructions.md", "- no applyTo")
    result = layout.load(["web/app.ts"])
    assert bodies(result) == [
        "- claude always",
        "- cursor always",
        "- copilot all",
        "- copilot ts",  # `**/*.ts`: specificity 4
        "- cursor ts",  # `web/*.ts`: 7
        "- claude ts",  # `web/**/*.ts`: 8
    ]
    assert reasons(result) == [
        (
            ".cursor/rules/manual.mdc",
            "warning",
            "agent-requested in Cursor (a `description`, no `globs`, no `alwaysApply: true`): Cursor's "
            "model asks for it by its description, which vtcode cannot do; not loaded",
        ),
        (
            ".github/instructions/none.instructions.md",
            "warning",
            "no `applyTo`: Copilot uses it only when attached by hand; vtcode does not load it",
        ),
    ]


@pytest.mark.parametrize(
    ("switch", "folder"),
    [
        ("claude_rules", ".claude/rules/x.md"),
        ("cursor_rules", ".cursor/rules/x.mdc"),
        ("copilot_instructions", ".github/instructions/x.instructions.md"),
        ("copilot_instructions", ".github/copilot-instructions.md"),
        ("cursor_rules", ".cursorrules"),
        ("claude_rules", "CLAUDE.local.md"),
    ],
)
def test_cross_tool_folders_can_be_switched_off(tmp_path: Path, switch: str, folder: str) -> None:
    layout = make_layout(tmp_path)
    # Files in rule folders need frontmatter to apply everywhere; single files always apply.
    front = "---\nalwaysApply: true\napplyTo: '**'\n---\n" if "rules/" in folder or "ions/" in folder else ""
    layout.write(folder, front + "- x")
    assert bodies(layout.load()) == ["- x"]
    switched_off: dict[str, Any] = {switch: False}
    assert layout.load((), **switched_off).sources == ()


def test_symlinked_rule_folders_are_followed_without_looping(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    shared = layout.write("shared-rules/team.md", "- team").parent
    layout.write(".vtcode/rules/own.md", "- own")
    os.symlink(shared, layout.root / ".vtcode" / "rules" / "team")
    os.symlink(layout.root / ".vtcode" / "rules", layout.root / ".vtcode" / "rules" / "loop")
    assert bodies(layout.load()) == ["- own", "- team"]


def test_invalid_pattern_is_ignored_with_a_diagnostic(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("src/x.rs", "")
    layout.write(".vtcode/rules/r.md", "---\npaths: ['src/**.rs', 'src/*.rs']\n---\n- r")
    result = layout.load(["src/x.rs"])
    assert [s.matched_by for s in result.sources] == [("src/*.rs",)]
    assert reasons(result) == [
        (
            ".vtcode/rules/r.md",
            "warning",
            "`**` must be a whole path component in 'src/**.rs'; pattern ignored",
        )
    ]
