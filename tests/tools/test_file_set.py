"""file_set: symlinks, tracked-but-ignored and unmerged files, and the batches a search streams."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from vtcode.tools.file_set import FileBatch, visible_file_batches, visible_files, workspace_files
from vtcode.tools.workspace import resolve, workspace_root

GitSetup = Callable[[Path], None]
Setup = Callable[[Path], None]


def _tree(root: Path, files: dict[str, str]) -> None:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _conflicting_merge(repo: Path, name: str) -> None:
    """Leave `name` unmerged: the index then holds it three times (base, ours, theirs)."""
    _git(repo, "checkout", "-q", "-b", "other")
    (repo / name).write_text("other\n")
    _git(repo, "commit", "-q", "-am", "other")
    _git(repo, "checkout", "-q", "main")
    (repo / name).write_text("main\n")
    _git(repo, "commit", "-q", "-am", "main")
    merge = subprocess.run(["git", "merge", "-q", "other"], cwd=repo, capture_output=True, check=False)
    assert merge.returncode != 0
    stages = subprocess.run(["git", "ls-files", "--", name], cwd=repo, capture_output=True, check=True)
    assert stages.stdout.count(name.encode()) == 3


async def _visible(workspace: Path, path: str = ".") -> list[str]:
    return await visible_files(workspace_root(workspace), resolve(workspace, path))


async def _batches(workspace: Path, batch_files: int, path: str = ".") -> list[FileBatch]:
    root = workspace_root(workspace)
    return [batch async for batch in await visible_file_batches(root, resolve(workspace, path), batch_files)]


def _symlink_tree(workspace: Path, outside: Path) -> None:
    _tree(
        workspace,
        {"top.txt": "needle\n", "d/real.txt": "needle\n", "e/x.txt": "needle\n", "e/y.txt": "x\n"},
    )
    links = {
        "d/to_inside.txt": "../top.txt",
        "d/to_outside.txt": str(outside / "secret.txt"),
        "d/to_dir": "../e",
        "d/dangling": "nowhere",
        "d/loop": "loop",
        # The only entry git lists in its directory: checked by one lstat, not a directory read.
        "solo/only_link.txt": "../top.txt",
    }
    for link, target in links.items():
        (workspace / link).parent.mkdir(exist_ok=True)
        (workspace / link).symlink_to(target)


async def test_symlinks_count_only_when_they_reach_a_file_inside(
    workspace: Path, outside: Path, repository: Setup
) -> None:
    _symlink_tree(workspace, outside)
    repository(workspace)
    assert await _visible(workspace) == [
        "d/real.txt",
        "d/to_inside.txt",
        "e/x.txt",
        "e/y.txt",
        "solo/only_link.txt",
        "top.txt",
    ]
    # ripgrep skips symlinks inside a directory it reads whole, so no such directory holds one.
    (batch,) = await _batches(workspace, 1000)
    assert batch.whole_directories == ["e"]


async def test_tracked_but_ignored_files_stay_visible(
    workspace: Path, git_init: GitSetup, git_commit_all: GitSetup
) -> None:
    _tree(workspace, {".gitignore": "*.log\nbuild/\n", "a.py": "needle\n"})
    git_init(workspace)
    git_commit_all(workspace)
    _tree(workspace, {"debug.log": "needle\n", "build/gen.py": "needle\n", "build/gen2.py": "needle\n"})
    _git(workspace, "add", "-f", "debug.log", "build/gen.py", "build/gen2.py")
    # Ignored and untracked beside them: left out, and `build/` is no longer a whole directory.
    _tree(workspace, {"other.log": "needle\n", "build/tmp.o": "needle\n"})
    assert await _visible(workspace) == [".gitignore", "a.py", "build/gen.py", "build/gen2.py", "debug.log"]
    assert [batch.whole_directories for batch in await _batches(workspace, 1000)] == [[]]


async def test_deleted_file_beside_others_and_unmerged_paths(
    workspace: Path, git_init: GitSetup, git_commit_all: GitSetup
) -> None:
    _tree(workspace, {"d/a.txt": "a\n", "d/b.txt": "b\n", "conflict.txt": "base\n"})
    git_init(workspace)
    git_commit_all(workspace)
    _conflicting_merge(workspace, "conflict.txt")
    (workspace / "d" / "b.txt").unlink()
    assert await _visible(workspace) == ["conflict.txt", "d/a.txt"]
    # What is left in d/ is all listed, so d/ may be read whole.
    assert [batch.whole_directories for batch in await _batches(workspace, 1000)] == [["d"]]


WHOLE_TREE = {
    ".gitignore": "*.log\n",
    "top.txt": "x\n",
    "leaf/a.txt": "x\n",
    "leaf/.dot": "x\n",
    "leaf/.rgignore": "*\n",
    "mixed/a.txt": "x\n",
    "mixed/sub/b.txt": "x\n",
    "mixed/sub/c.txt": "x\n",
    "ignoring/a.txt": "x\n",
    "ignoring/b.log": "x\n",
    "deep/er/c.txt": "x\n",
    "deep/er/d.txt": "x\n",
}


async def test_whole_directories_hold_nothing_but_listed_files(workspace: Path, repository: Setup) -> None:
    _tree(workspace, WHOLE_TREE)
    repository(workspace)
    (batch,) = await _batches(workspace, 1000)
    # Never the root; not with a subdirectory; not with an ignored file in it.
    assert sorted(batch.whole_directories) == ["deep/er", "leaf", "mixed/sub"]
    (below,) = await _batches(workspace, 1000, path="leaf")
    assert sorted(below.files) == ["leaf/.dot", "leaf/.rgignore", "leaf/a.txt"]
    assert below.whole_directories == ["leaf"]


@pytest.mark.parametrize("batch_files", [1, 2, 3, 1000])
async def test_batches_cover_the_set_once_and_whole_directories_are_whole(
    workspace: Path, repository: Setup, batch_files: int
) -> None:
    _tree(workspace, WHOLE_TREE)
    repository(workspace)
    batches = await _batches(workspace, batch_files)
    listed = [path for batch in batches for path in batch.files]
    assert sorted(listed) == await _visible(workspace)
    assert all(batch.files for batch in batches)
    for batch in batches:
        for directory in batch.whole_directories:
            entries = list(os.scandir(workspace / directory))
            assert all(entry.is_file(follow_symlinks=False) for entry in entries)
            assert {f"{directory}/{entry.name}" for entry in entries} <= set(batch.files)
    if batch_files == 1:
        # The smallest batches still hold a directory's files together.
        assert any(len(batch.files) > 1 for batch in batches)


async def test_an_explicit_file_is_one_batch(workspace: Path) -> None:
    _tree(workspace, {".gitignore": "*.log\n", "a.log": "x\n"})
    assert await _batches(workspace, 1000, path="a.log") == [FileBatch(["a.log"], [])]


async def test_the_blocking_listing_is_the_set_list_files_sees(workspace: Path, repository: Setup) -> None:
    _tree(workspace, {**WHOLE_TREE, "node_modules/x/index.js": "x\n", ".gitignore": "*.log\nnode_modules/\n"})
    repository(workspace)
    assert sorted(workspace_files(workspace_root(workspace))) == await _visible(workspace)
    assert not any(path.startswith("node_modules/") for path in workspace_files(workspace))
