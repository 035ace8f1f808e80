"""Every workspace tool refuses paths outside the workspace, and nothing outside is read or written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vtcode.tools.apply_patch import ApplyPatchTool
from vtcode.tools.base import Tool, ToolContext, ToolOutcome
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.list_files import ListFilesTool
from vtcode.tools.read_file import ReadFileTool
from vtcode.tools.write_file import WriteFileTool

Snapshot = dict[str, tuple[bytes, int] | str]
SECRET = "TOP-SECRET"


async def _refused(
    tool: Tool,
    arguments: dict[str, Any],
    ctx: ToolContext,
    snapshot_outside: Callable[[], Snapshot],
    reason: str,
) -> ToolOutcome:
    before = snapshot_outside()
    outcome = await tool.run(arguments, ctx)
    assert outcome.is_error, outcome
    assert reason in outcome.content
    assert SECRET not in outcome.content
    assert outcome.changes == ()
    assert snapshot_outside() == before
    return outcome


@pytest.mark.parametrize("raw", ["../outside/secret.txt", "../x"])
async def test_read_file_refuses_dotdot(
    ctx: ToolContext, outside: Path, snapshot_outside: Callable[[], Snapshot], raw: str
) -> None:
    outcome = await _refused(
        ReadFileTool(), {"path": raw}, ctx, snapshot_outside, "climbs out of the workspace"
    )
    assert outcome.content.startswith("read_file: ")


async def test_read_file_refuses_absolute_path_outside(
    ctx: ToolContext, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    arguments = {"path": str(outside / "secret.txt")}
    await _refused(ReadFileTool(), arguments, ctx, snapshot_outside, "is outside the workspace")


async def test_read_file_refuses_symlink_pointing_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    await _refused(ReadFileTool(), {"path": "link.txt"}, ctx, snapshot_outside, "points outside")


async def test_read_file_refuses_symlinked_directory_pointing_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "linkdir").symlink_to(outside, target_is_directory=True)
    await _refused(ReadFileTool(), {"path": "linkdir/secret.txt"}, ctx, snapshot_outside, "points outside")


@pytest.mark.parametrize("raw", ["../x", "../outside/secret.txt", "sub/../../x"])
async def test_write_file_refuses_dotdot(
    ctx: ToolContext, outside: Path, snapshot_outside: Callable[[], Snapshot], raw: str
) -> None:
    arguments = {"path": raw, "content": "pwned\n"}
    await _refused(WriteFileTool(), arguments, ctx, snapshot_outside, "climbs out")


async def test_write_file_refuses_absolute_path_outside(
    ctx: ToolContext, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    for target in (outside / "secret.txt", outside / "new.txt"):
        arguments = {"path": str(target), "content": "pwned\n"}
        await _refused(WriteFileTool(), arguments, ctx, snapshot_outside, "outside the workspace")


async def test_write_file_refuses_writing_through_symlink_pointing_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    (workspace / "dangling.txt").symlink_to(outside / "created-by-agent.txt")
    for raw in ("link.txt", "dangling.txt"):
        arguments = {"path": raw, "content": "pwned\n"}
        await _refused(WriteFileTool(), arguments, ctx, snapshot_outside, "points outside")
    assert (workspace / "link.txt").is_symlink()


async def test_write_file_refuses_symlinked_directory_pointing_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "linkdir").symlink_to(outside, target_is_directory=True)
    for raw in ("linkdir/secret.txt", "linkdir/new.txt", "linkdir/deep/new.txt"):
        arguments = {"path": raw, "content": "pwned\n"}
        await _refused(WriteFileTool(), arguments, ctx, snapshot_outside, "points outside")


async def test_write_file_refuses_git_internals(
    ctx: ToolContext, workspace: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / ".git").mkdir()
    arguments = {"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\n"}
    await _refused(WriteFileTool(), arguments, ctx, snapshot_outside, ".git directory")
    assert not (workspace / ".git" / "hooks").exists()


def _patch(*body: str) -> dict[str, str]:
    return {"patch": "\n".join(["*** Begin Patch", *body, "*** End Patch"])}


async def test_apply_patch_refuses_adding_a_file_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "linkdir").symlink_to(outside, target_is_directory=True)
    cases = {
        "../evil.txt": "climbs out",
        str(outside / "evil.txt"): "outside the workspace",
        "linkdir/evil.txt": "points outside",
    }
    for raw, reason in cases.items():
        arguments = _patch("*** Add File: inside.txt", "+ok", f"*** Add File: {raw}", "+pwned")
        await _refused(ApplyPatchTool(), arguments, ctx, snapshot_outside, reason)
        # The valid first operation was not written either: the patch is all or nothing.
        assert not (workspace / "inside.txt").exists()


async def test_apply_patch_refuses_moving_a_file_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "a.txt").write_text("one\n")
    (workspace / "linkdir").symlink_to(outside, target_is_directory=True)
    cases = {
        "../moved.txt": "climbs out",
        str(outside / "moved.txt"): "outside the workspace",
        "linkdir/moved.txt": "points outside",
    }
    for raw, reason in cases.items():
        arguments = _patch("*** Update File: a.txt", f"*** Move to: {raw}", "-one", "+two")
        await _refused(ApplyPatchTool(), arguments, ctx, snapshot_outside, reason)
        assert (workspace / "a.txt").read_text() == "one\n"


async def test_apply_patch_refuses_updating_or_deleting_through_outside_symlinks(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    update = _patch("*** Update File: link.txt", "-TOP-SECRET outside content", "+pwned")
    await _refused(ApplyPatchTool(), update, ctx, snapshot_outside, "points outside")
    delete = _patch("*** Delete File: link.txt")
    await _refused(ApplyPatchTool(), delete, ctx, snapshot_outside, "points outside")
    assert (workspace / "link.txt").is_symlink()


async def test_list_files_refuses_paths_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "linkdir").symlink_to(outside, target_is_directory=True)
    await _refused(ListFilesTool(), {"path": ".."}, ctx, snapshot_outside, "climbs out")
    await _refused(ListFilesTool(), {"path": str(outside)}, ctx, snapshot_outside, "outside")
    await _refused(ListFilesTool(), {"path": "linkdir"}, ctx, snapshot_outside, "points outside")


async def test_list_and_grep_do_not_follow_symlinks_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "linkdir").symlink_to(outside, target_is_directory=True)
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    (workspace / "own.txt").write_text("TOP-SECRET-looking but inside\n")
    before = snapshot_outside()
    listing = await ListFilesTool().run({}, ctx)
    assert listing == ToolOutcome(content="own.txt", touched_paths=(".",), extra={"total": 1})
    for tool in (GrepFilesTool(use_ripgrep=False), GrepFilesTool()):
        found = await tool.run({"pattern": "TOP-SECRET"}, ctx)
        assert found.content == "own.txt:1:TOP-SECRET-looking but inside"
    assert snapshot_outside() == before


async def test_grep_files_refuses_paths_outside(
    ctx: ToolContext, workspace: Path, outside: Path, snapshot_outside: Callable[[], Snapshot]
) -> None:
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    grep = GrepFilesTool(use_ripgrep=False)
    await _refused(grep, {"pattern": "SECRET", "path": "../outside"}, ctx, snapshot_outside, "climbs")
    await _refused(grep, {"pattern": "SECRET", "path": "link.txt"}, ctx, snapshot_outside, "outside")
