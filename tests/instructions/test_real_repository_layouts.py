"""`vtcode instructions` on layouts found in large public repositories, each in a fresh `git init` folder.

Duplicated `@` imports, `@` inside code, a cut inside a fence, gitignored agent folders, ignored trees
in the never-matching check, the budget's fairness, unexplained rules, Copilot's and Cursor's other
files, and the wording of what is not loaded.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import VtcodeRunner
from vtcode.cli.instructions_cmd import run_instructions


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh git repository, also the current folder (so `--path` values are read from it)."""
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    monkeypatch.chdir(root)
    return root


def _write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _run(root: Path, *paths: str, overrides: tuple[str, ...] = (), as_json: bool = True) -> str:
    out = io.StringIO()
    args = argparse.Namespace(workspace=str(root), path=list(paths) or None, json=as_json)
    assert run_instructions(args, list(overrides), out=out) == 0
    return out.getvalue()


def _report(root: Path, *paths: str, overrides: tuple[str, ...] = ()) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(_run(root, *paths, overrides=overrides))
    return report


def _sources(report: dict[str, Any]) -> list[tuple[str, int, bool]]:
    return [(s["path"], s["bytes"], s["truncated"]) for s in report["sources"]]


def _diagnostics(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(d["path"], d["severity"], d["reason"]) for d in report["diagnostics"]]


def _section(appendix: str, heading: str) -> str:
    """The body of the section whose heading starts with `heading`, up to the next section."""
    return appendix.split(f"\n{heading}", 1)[1].split("\n### ", 1)[0].split("\n_Project", 1)[0]


def test_a_file_imported_by_another_source_is_sent_once(repo: Path) -> None:
    _write(repo, {"AGENTS.md": "- rule A\n", "CLAUDE.md": "@AGENTS.md\n"})
    report = _report(repo)
    claude = _section(report["appendix"], "### 2. CLAUDE.md")
    assert "rule A" not in claude
    assert "[AGENTS.md is loaded as its own section; not repeated here]" in claude
    assert "- rule A" in _section(report["appendix"], "### 1. AGENTS.md")


def test_an_import_not_loaded_elsewhere_is_still_inlined(repo: Path) -> None:
    _write(
        repo, {"docs/style.md": "- tabs\n", "AGENTS.md": "See @docs/style.md\n", "CLAUDE.md": "@AGENTS.md\n"}
    )
    report = _report(repo)
    assert "- tabs" in _section(report["appendix"], "### 1. AGENTS.md")
    assert "tabs" not in _section(report["appendix"], "### 2. CLAUDE.md")


def test_at_signs_inside_code_spans_are_not_imports(repo: Path) -> None:
    _write(
        repo,
        {
            "docs/x.md": "- secret x\n",
            "AGENTS.md": "- `yarn build --filter @sentry/<pkg>`\n- Run `cat @docs/x.md | less`\n"
            "- Also ``@docs/x.md`` and ```@docs/x.md```\n",
        },
    )
    report = _report(repo)
    assert _diagnostics(report) == []
    assert "secret x" not in report["appendix"]


def test_a_cut_inside_a_fence_closes_it_before_the_next_section(repo: Path, vtcode: VtcodeRunner) -> None:
    block = "\n".join(f"echo line {n}" for n in range(50))
    _write(
        repo,
        {
            "AGENTS.md": f"- root\n\n```bash\n{block}\n```\n",
            "pkg/AGENTS.md": "- pkg rule\n",
            "pkg/a.py": "",
        },
    )
    done = vtcode.run(
        "instructions", "--path", "pkg/a.py", "-c", "agent.instruction_max_bytes=200", "--json", cwd=repo
    )
    assert done.code == 0, done.stderr
    appendix = json.loads(done.stdout)["appendix"]
    before, after = appendix.split("\n### 2. pkg/AGENTS.md (workspace AGENTS)\n", 1)
    # Every fence before the heading is closed: an even number of fence lines, the last a bare closer.
    fences = [line for line in before.splitlines() if line.startswith("```")]
    assert len(fences) == 2
    assert fences[-1] == "```"
    assert "```" not in after


def test_gitignored_agent_rule_folders_are_read(repo: Path) -> None:
    _write(
        repo,
        {
            ".gitignore": ".claude/\n.vtcode/rules/local-*.md\nCLAUDE.local.md\n",
            ".claude/rules/x.md": "- claude rule\n",
            ".vtcode/rules/local-mine.md": "- mine\n",
            "CLAUDE.local.md": "- my own notes\n",
        },
    )
    report = _report(repo)
    assert [path for path, _, _ in _sources(report)] == [
        "CLAUDE.local.md",
        ".claude/rules/x.md",
        ".vtcode/rules/local-mine.md",
    ]
    assert _diagnostics(report) == []


@pytest.mark.parametrize("git", [True, False], ids=["git-index", "gitignore-walk"])
def test_a_rule_matching_only_ignored_files_never_matches(tmp_path: Path, git: bool) -> None:
    root = tmp_path / "work"
    root.mkdir()
    if git:
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    _write(
        root,
        {
            ".gitignore": "node_modules/\n",
            "node_modules/left-pad/index.js": "",
            "src/a.py": "",
            ".vtcode/rules/js.md": "---\npaths: '**/*.js'\n---\n- js\n",
            ".vtcode/rules/py.md": "---\npaths: 'src/**/*.py'\n---\n- py\n",
        },
    )
    report = _report(root)
    assert _diagnostics(report) == [
        (".vtcode/rules/js.md", "warning", "paths `**/*.js` never match a file in the workspace"),
        (".vtcode/rules/py.md", "info", "paths `src/**/*.py` match none of the active paths; not loaded"),
    ]


def test_one_large_rule_cannot_push_out_the_package_file(repo: Path) -> None:
    _write(
        repo,
        {
            "AGENTS.md": "- root\n",
            "pkg/a.py": "",
            "pkg/CLAUDE.md": "- pkg\n" + "p" * 1700,
            ".cursor/rules/huge.mdc": "---\nglobs: pkg/**\n---\n" + "h" * 32_000,
        },
    )
    report = _report(repo, "pkg/a.py")
    assert _sources(report) == [
        ("AGENTS.md", 6, False),
        ("pkg/CLAUDE.md", 1706, False),
        (".cursor/rules/huge.mdc", 16_384 - 6 - 1706, True),
    ]


def test_the_nearest_file_gets_what_is_left_before_matched_rules(repo: Path) -> None:
    _write(
        repo,
        {
            "AGENTS.md": "r" * 500,
            "pkg/a.py": "",
            "pkg/AGENTS.md": "n" * 8700,
            ".vtcode/rules/one.md": "---\npaths: pkg/**\n---\n" + "1" * 6000,
            ".vtcode/rules/two.md": "---\npaths: '**/*.py'\n---\n" + "2" * 6000,
        },
    )
    report = _report(repo, "pkg/a.py")
    # Floors of 16384 // 4 = 4096; the nearest file then takes all that is left.
    assert _sources(report) == [
        ("AGENTS.md", 500, False),
        ("pkg/AGENTS.md", 16_384 - 500 - 2 * 4096, True),
        (".vtcode/rules/one.md", 4096, True),
        (".vtcode/rules/two.md", 4096, True),
    ]


def test_rules_that_match_no_active_path_are_explained(repo: Path) -> None:
    _write(
        repo,
        {
            "src/a.py": "",
            "web/b.ts": "",
            ".vtcode/rules/web.md": "---\npaths: web/**\n---\n- web\n",
            ".github/instructions/ts.instructions.md": "---\napplyTo: '**/*.ts'\n---\n- ts\n",
        },
    )
    text = _run(repo, "src/a.py", as_json=False)
    assert text.endswith(
        "diagnostics:\n"
        "  info     .vtcode/rules/web.md: paths `web/**` match none of the active paths; not loaded\n"
        "  info     .github/instructions/ts.instructions.md: paths `**/*.ts` match none of the active "
        "paths; not loaded\n"
    )


def test_copilot_and_cursor_single_files_are_read(repo: Path) -> None:
    _write(repo, {".github/copilot-instructions.md": "- copilot\n", ".cursorrules": "- legacy cursor\n"})
    report = _report(repo)
    assert [(s["path"], s["label"]) for s in report["sources"]] == [
        (".cursorrules", "workspace rule"),
        (".github/copilot-instructions.md", "workspace rule"),
    ]


def test_rule_folders_are_read_recursively_and_nested_cursor_rules_stay_in_their_folder(repo: Path) -> None:
    always = "---\nalwaysApply: true\n---\n"
    _write(
        repo,
        {
            "pkg/a.py": "",
            "other/b.py": "",
            ".github/instructions/sub/py.instructions.md": "---\napplyTo: '**/*.py'\n---\n- copilot sub\n",
            ".cursor/rules/sub/all.mdc": always + "- cursor sub\n",
            "pkg/.cursor/rules/deep/pkg.mdc": always + "- pkg cursor\n",
            # Anchored at its own folder: `/a.py` is pkg/a.py.
            "pkg/.cursor/rules/anchored.mdc": "---\nglobs: /a.py\n---\n- pkg a.py\n",
            "other/.cursor/rules/other.mdc": always + "- other cursor\n",
        },
    )
    report = _report(repo, "pkg/a.py")
    assert [(s["path"], s["matched_by"]) for s in report["sources"]] == [
        (".cursor/rules/sub/all.mdc", []),
        ("pkg/.cursor/rules/deep/pkg.mdc", []),
        (".github/instructions/sub/py.instructions.md", ["**/*.py"]),
        ("pkg/.cursor/rules/anchored.mdc", ["/a.py"]),
    ]


def test_cursor_rules_loaded_on_request_are_named_as_cursor_names_them(repo: Path) -> None:
    _write(
        repo,
        {
            ".cursor/rules/asked.mdc": "---\ndescription: Use when writing migrations\n---\n- x\n",
            ".cursor/rules/manual.mdc": "---\nalwaysApply: false\n---\n- y\n",
        },
    )
    assert _diagnostics(_report(repo)) == [
        (
            ".cursor/rules/asked.mdc",
            "warning",
            "agent-requested in Cursor (a `description`, no `globs`, no `alwaysApply: true`): Cursor's "
            "model asks for it by its description, which vtcode cannot do; not loaded",
        ),
        (
            ".cursor/rules/manual.mdc",
            "warning",
            "manual in Cursor (no `description`, `globs` or `alwaysApply: true`): used only when mentioned "
            "with @; vtcode does not load it",
        ),
    ]


def test_a_zero_budget_says_instructions_are_disabled(repo: Path) -> None:
    _write(repo, {"AGENTS.md": "- root\n"})
    text = _run(repo, overrides=("agent.instruction_max_bytes=0",), as_json=False)
    assert "instructions disabled (agent.instruction_max_bytes = 0)" in text
    assert "no instruction sources apply" not in text
