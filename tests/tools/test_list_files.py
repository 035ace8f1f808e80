"""list_files: gitignore-aware listing in a git repository and without one, globs and caps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.list_files import ListFilesTool


def _tree(root: Path, files: dict[str, str]) -> None:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


# Negation, directory-only patterns, anchored patterns and nested ignore files in one tree.
IGNORE_TREE = {
    ".gitignore": "*.log\n!keep.log\nbuild/\n/anchored.txt\nnode_modules\n",
    "README.md": "readme\n",
    "app.log": "noise\n",
    "keep.log": "kept\n",
    "anchored.txt": "ignored at the root only\n",
    "build/out.bin": "artifact\n",
    "node_modules/pkg/index.js": "dep\n",
    "src/main.py": "print(1)\n",
    "src/anchored.txt": "not ignored below the root\n",
    "src/.gitignore": "generated_*.py\n!generated_keep.py\n",
    "src/generated_x.py": "gen\n",
    "src/generated_keep.py": "gen, re-included\n",
    "src/deep/nested/mod.py": "pass\n",
    "docs/guide.md": "# guide\n",
    ".github/workflows/ci.yml": "on: push\n",
}

VISIBLE = [
    ".github/workflows/ci.yml",
    ".gitignore",
    "README.md",
    "docs/guide.md",
    "keep.log",
    "src/.gitignore",
    "src/anchored.txt",
    "src/deep/nested/mod.py",
    "src/generated_keep.py",
    "src/main.py",
]


async def _list(ctx: ToolContext, **arguments: object) -> list[str]:
    outcome = await ListFilesTool().run(dict(arguments), ctx)
    assert not outcome.is_error, outcome.content
    return outcome.content.split("\n")


async def test_respects_gitignore_without_git(ctx: ToolContext, workspace: Path) -> None:
    _tree(workspace, IGNORE_TREE)
    (workspace / ".git").mkdir()  # a stray .git directory without a repository is still skipped
    (workspace / ".git" / "config").write_text("junk\n")
    assert await _list(ctx) == VISIBLE


async def test_respects_gitignore_in_a_git_repo(
    ctx: ToolContext,
    workspace: Path,
    git_init: Callable[[Path], None],
    git_commit_all: Callable[[Path], None],
) -> None:
    _tree(workspace, IGNORE_TREE)
    git_init(workspace)
    git_commit_all(workspace)
    (workspace / "untracked.py").write_text("new\n")
    (workspace / "untracked.log").write_text("ignored\n")
    (workspace / "docs" / "guide.md").unlink()  # still in the index, gone from the work tree
    (workspace / ".git" / "info").mkdir(exist_ok=True)
    (workspace / ".git" / "info" / "exclude").write_text("README.md\n")  # tracked: still listed
    expected = sorted({*VISIBLE, "untracked.py"} - {"docs/guide.md"})
    assert await _list(ctx) == expected


async def test_git_and_pathspec_agree(tmp_path: Path, git_init: Callable[[Path], None]) -> None:
    plain = tmp_path / "plain"
    repo = tmp_path / "repo"
    for root in (plain, repo):
        root.mkdir()
        _tree(root, IGNORE_TREE)
    git_init(repo)
    without_git = await _list(ToolContext(workspace=plain))
    with_git = await _list(ToolContext(workspace=repo))
    assert without_git == with_git == VISIBLE


async def test_workspace_in_a_subdirectory_of_a_repo(
    tmp_path: Path, git_init: Callable[[Path], None]
) -> None:
    _tree(tmp_path / "repo", {".gitignore": "*.tmp\n", "pkg/a.py": "", "pkg/b.tmp": "", "top.py": ""})
    git_init(tmp_path / "repo")
    ctx = ToolContext(workspace=tmp_path / "repo" / "pkg")
    assert await _list(ctx) == ["a.py"]


@pytest.mark.parametrize("use_git", [False, True])
async def test_path_and_pattern_narrow_the_listing(
    ctx: ToolContext, workspace: Path, git_init: Callable[[Path], None], use_git: bool
) -> None:
    _tree(workspace, IGNORE_TREE)
    if use_git:
        git_init(workspace)
    assert await _list(ctx, pattern="*.py") == [
        "src/deep/nested/mod.py",
        "src/generated_keep.py",
        "src/main.py",
    ]
    assert await _list(ctx, path="src/deep") == ["src/deep/nested/mod.py"]
    assert await _list(ctx, path="src", pattern="deep/**/*.py") == ["src/deep/nested/mod.py"]
    assert await _list(ctx, pattern="src/*.py") == ["src/generated_keep.py", "src/main.py"]
    assert await _list(ctx, pattern="**/*.{md,yml}") == [
        ".github/workflows/ci.yml",
        "README.md",
        "docs/guide.md",
    ]
    # An explicitly named directory that is ignored shows nothing, as in git.
    no_files = await ListFilesTool().run({"path": "build"}, ctx)
    assert no_files == ToolOutcome(content="No files in build.", touched_paths=("build",))


async def test_max_results_caps_with_a_count_of_the_rest(ctx: ToolContext, workspace: Path) -> None:
    _tree(workspace, {f"f{n:02}.txt": "" for n in range(12)})
    outcome = await ListFilesTool().run({"max_results": 5}, ctx)
    assert outcome == ToolOutcome(
        content="\n".join(f"f{n:02}.txt" for n in range(5))
        + "\n[7 more not shown; narrow the listing with path or pattern]",
        touched_paths=(".",),
        extra={"total": 12},
    )


async def test_a_file_path_lists_itself(ctx: ToolContext, workspace: Path) -> None:
    _tree(workspace, {"a/b.txt": "x"})
    assert await _list(ctx, path="a/b.txt") == ["a/b.txt"]


async def test_missing_directory_is_an_error(ctx: ToolContext) -> None:
    outcome = await ListFilesTool().run({"path": "nope"}, ctx)
    assert outcome == ToolOutcome(content="list_files: no such file or directory: nope", is_error=True)


async def test_empty_workspace(ctx: ToolContext) -> None:
    outcome = await ListFilesTool().run({"pattern": "*.rs"}, ctx)
    assert outcome == ToolOutcome(content="No files in the workspace matching '*.rs'.", touched_paths=(".",))
