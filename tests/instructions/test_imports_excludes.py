"""Exclusions, `@` imports and comment handling: reference section 9, cases 33-36."""

from __future__ import annotations

from pathlib import Path

from tests.instructions.helpers import bodies, instruction_map, make_layout, reasons
from vtcode.core.instructions.text import import_tokens, strip_html_comments


def test_absolute_exclude_drops_that_file(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "root")
    nested = layout.write("src/AGENTS.md", "src")
    result = layout.load(["src"], excludes=(str(nested),))
    assert bodies(result) == ["root"]
    assert reasons(result) == [
        ("src/AGENTS.md", "warning", f"excluded by agent.instruction_excludes {str(nested)!r}")
    ]


def test_glob_exclude_drops_agents_and_rules(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("legacy/AGENTS.md", "legacy")
    layout.write(".vtcode/rules/legacy/r.md", "legacy rule")
    layout.write(".vtcode/rules/keep.md", "kept rule")
    result = layout.load(["legacy"], excludes=("**/legacy/**",))
    assert bodies(result) == ["kept rule"]
    assert [path for path, _, _ in reasons(result)] == ["legacy/AGENTS.md", ".vtcode/rules/legacy/r.md"]


def test_excluded_override_lets_agents_load(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.override.md", "override")
    layout.write("AGENTS.md", "agents")
    result = layout.load(excludes=("AGENTS.override.md",))
    assert bodies(result) == ["agents"]


def test_excludes_apply_to_imports(tmp_path: Path) -> None:
    # [decide] The original does not apply exclusions to imports; SPEC section 5 decision 3 does.
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- root\n@legacy/old.md")
    layout.write("legacy/old.md", "- old")
    result = layout.load(excludes=("**/legacy/**",))
    assert bodies(result) == ["- root\n@legacy/old.md"]
    assert reasons(result) == [
        (
            "AGENTS.md",
            "warning",
            "import @legacy/old.md is excluded by agent.instruction_excludes '**/legacy/**'",
        )
    ]


def test_import_placement(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "# Root\n<!-- hidden -->\n- visible\n\nSee @docs/shared.md\n- trailing")
    layout.write("docs/shared.md", "- imported")
    result = layout.load()
    shared = (layout.root / "docs" / "shared.md").resolve().as_posix()
    assert bodies(result) == [
        f"# Root\n\n- visible\n\nSee @docs/shared.md\n[Imported from {shared}]\n- imported\n\n- trailing"
    ]


def test_import_cycle_terminates(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- a\n@B.md")
    layout.write("B.md", "- b\n@AGENTS.md")
    result = layout.load()
    b_path = (layout.root / "B.md").resolve().as_posix()
    assert bodies(result) == [f"- a\n@B.md\n[Imported from {b_path}]\n- b\n@AGENTS.md"]
    assert reasons(result) == [
        ("B.md", "warning", "import cycle AGENTS.md -> B.md -> AGENTS.md; @AGENTS.md not loaded again")
    ]


def test_import_depth_cap(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- top\n@f1.md")
    for n in range(1, 7):
        layout.write(f"f{n}.md", f"- level {n}\n@f{n + 1}.md" if n < 6 else "- level 6")
    result = layout.load(import_max_depth=5)
    text = bodies(result)[0]
    assert [f"- level {n}" in text for n in range(1, 7)] == [True] * 5 + [False]
    assert reasons(result) == [
        (
            "f5.md",
            "warning",
            "import @f6.md is deeper than agent.instruction_import_max_depth (5); not loaded",
        )
    ]


def test_outside_missing_fenced_and_repeated_imports(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("../outside.md", "- outside")
    layout.write(
        "AGENTS.md",
        "@../outside.md\n@missing.md\n```\n@docs/fenced.md\n```\n@docs/twice.md\n@docs/twice.md again",
    )
    layout.write("docs/fenced.md", "- fenced")
    layout.write("docs/twice.md", "- twice")
    result = layout.load()
    text = bodies(result)[0]
    assert "- outside" not in text
    assert "- fenced" not in text
    assert text.count("- twice") == 1
    assert text.index("- twice") < text.index("@docs/twice.md again")
    assert reasons(result) == [
        (
            "AGENTS.md",
            "warning",
            "import @../outside.md is outside the project and the vtcode config folders; not loaded",
        ),
        ("AGENTS.md", "warning", "import @missing.md not found; not loaded"),
    ]


def test_a_workspace_file_cannot_import_from_the_vtcode_config_roots(tmp_path: Path) -> None:
    # A repository's AGENTS.md must not send `$VTCODE_HOME/vtcode.toml` (MCP bearer headers) anywhere.
    layout = make_layout(tmp_path)
    layout.user(".vtcode/vtcode.toml", 'headers = { Authorization = "Bearer SECRET" }')
    layout.write("AGENTS.md", "- project\n@~/.vtcode/vtcode.toml")
    result = layout.load()
    assert bodies(result) == ["- project\n@~/.vtcode/vtcode.toml"]
    assert "SECRET" not in (result.appendix or "")
    assert reasons(result) == [
        (
            "AGENTS.md",
            "warning",
            "import @~/.vtcode/vtcode.toml leads into vtcode's or your configuration, which a workspace "
            "file may not import; not loaded",
        )
    ]


def test_the_users_own_file_may_import_from_the_vtcode_config_roots(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.user(".vtcode/shared/style.md", "- house style")
    layout.user(".vtcode/AGENTS.md", f"@{layout.vtcode_home}/shared/style.md")
    assert "- house style" in bodies(layout.load())[0]


def test_imported_rule_files_lose_their_frontmatter(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "@.vtcode/rules/lib/py.md")
    layout.write(".vtcode/rules/lib/py.md", "---\npaths: '**/*.py'\n---\n- py")
    layout.write("x.py", "")
    text = bodies(layout.load())[0]
    assert "paths:" not in text
    assert text.endswith("- py")


def test_import_tokens() -> None:
    assert import_tokens("See @docs/a.md. and (@b/c.md), also @d.md: done") == ["docs/a.md", "b/c.md", "d.md"]
    assert import_tokens("mail me@example.com or ping @octocat, @~/notes.md") == ["~/notes.md"]


def test_comment_handling() -> None:
    assert strip_html_comments("a <!-- x --> b") == "a  b\n"
    assert strip_html_comments("keep\n<!-- one\ntwo\nthree -->\nafter") == "keep\n\n\n\nafter\n"
    assert strip_html_comments("before\n<!-- never closed\nlost\nlost") == "before\n\n\n\n"
    fenced = "```html\n<!-- kept -->\n```\n<!-- gone -->x"
    assert strip_html_comments(fenced) == "```html\n<!-- kept -->\n```\nx\n"
    assert strip_html_comments("crlf\r\nline\r\n") == "crlf\nline\n"


def test_comments_are_removed_from_sources(tmp_path: Path) -> None:
    layout = make_layout(tmp_path)
    layout.write("AGENTS.md", "- a <!-- note --> b\n<!--\nmaintainer notes\n-->\n- c")
    assert bodies(layout.load()) == ["- a  b\n\n\n\n- c"]
    assert instruction_map(layout.load()) == ["AGENTS.md (workspace AGENTS)"]
