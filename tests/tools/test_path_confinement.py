"""Path confinement: what `resolve` accepts, how it shows paths, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from vtcode.protocol.errors import ToolError
from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.read_file import ReadFileTool
from vtcode.tools.workspace import ConfinementError, WorkspacePath, resolve


def test_relative_path_resolves_inside(workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "a.py").write_text("x\n")
    root = workspace.resolve()
    assert resolve(workspace, "src/./b/../a.py") == WorkspacePath(
        real=root / "src" / "a.py", lexical=root / "src" / "a.py", display="src/a.py"
    )


def test_absolute_path_inside_is_shown_relative(workspace: Path) -> None:
    assert resolve(workspace, str(workspace / "new" / "file.txt")).display == "new/file.txt"
    assert resolve(workspace, str(workspace)).display == "."


def test_absolute_path_through_a_symlinked_workspace(tmp_path: Path, workspace: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(workspace)
    # The workspace as configured may itself be a link; both spellings of a path inside are fine.
    assert resolve(alias, str(alias / "f.txt")).display == "f.txt"
    assert resolve(alias, str(workspace / "f.txt")).display == "f.txt"


@pytest.mark.parametrize("raw", ["../x", "..", "a/../../x", "./../outside/secret.txt"])
def test_dotdot_escape_is_refused(workspace: Path, raw: str) -> None:
    with pytest.raises(ConfinementError, match="climbs out of the workspace"):
        resolve(workspace, raw)


def test_absolute_path_outside_is_refused(workspace: Path, outside: Path) -> None:
    with pytest.raises(ConfinementError, match="is outside the workspace"):
        resolve(workspace, str(outside / "secret.txt"))
    with pytest.raises(ConfinementError, match="is outside the workspace"):
        resolve(workspace, "/etc/passwd")


def test_file_symlink_pointing_outside_is_refused(workspace: Path, outside: Path) -> None:
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    for for_write in (False, True):
        with pytest.raises(ConfinementError, match="symbolic link that points outside"):
            resolve(workspace, "link.txt", for_write=for_write)


def test_dangling_symlink_pointing_outside_is_refused_for_writes(workspace: Path, outside: Path) -> None:
    # Writing through it would create the target outside the workspace.
    (workspace / "dangling").symlink_to(outside / "not-yet.txt")
    with pytest.raises(ConfinementError):
        resolve(workspace, "dangling", for_write=True)


def test_intermediate_directory_symlink_pointing_outside_is_refused(workspace: Path, outside: Path) -> None:
    (workspace / "linkdir").symlink_to(outside, target_is_directory=True)
    for raw in ("linkdir/secret.txt", "linkdir/new/deeper.txt", "linkdir"):
        with pytest.raises(ConfinementError, match="symbolic link that points outside"):
            resolve(workspace, raw, for_write=True)


def test_symlink_inside_the_workspace_resolves_to_its_target(workspace: Path) -> None:
    (workspace / "real.txt").write_text("x\n")
    (workspace / "alias.txt").symlink_to("real.txt")
    resolved = resolve(workspace, "alias.txt")
    assert resolved.display == "real.txt"
    assert resolved.lexical == workspace.resolve() / "alias.txt"


@pytest.mark.parametrize("raw", [".git/config", ".git/hooks/pre-commit", "sub/.git/HEAD"])
def test_git_internals_are_read_only(workspace: Path, raw: str) -> None:
    assert resolve(workspace, raw).display == raw
    with pytest.raises(ConfinementError, match=r"inside a \.git directory"):
        resolve(workspace, raw, for_write=True)


def test_the_root_itself_cannot_be_written(workspace: Path) -> None:
    with pytest.raises(ConfinementError, match="workspace root itself"):
        resolve(workspace, ".", for_write=True)


@pytest.mark.parametrize("raw", ["", "   ", "a\0b"])
def test_empty_or_nul_paths_are_refused(workspace: Path, raw: str) -> None:
    with pytest.raises(ToolError):
        resolve(workspace, raw)


def test_missing_workspace_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="is not a directory"):
        resolve(tmp_path / "missing", "a.txt")


async def test_symlink_loop_is_an_error_outcome(workspace: Path) -> None:
    (workspace / "loop").symlink_to("loop")
    outcome = await ReadFileTool().run({"path": "loop"}, ToolContext(workspace=workspace))
    assert outcome == ToolOutcome(
        content="read_file: cannot read loop: Too many levels of symbolic links", is_error=True
    )
