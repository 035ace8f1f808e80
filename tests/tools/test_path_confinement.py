"""Path confinement: what `resolve` accepts, how it shows paths, and what it refuses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vtcode.protocol.errors import ToolError
from vtcode.tools.apply_patch import ApplyPatchTool
from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.read_file import ReadFileTool
from vtcode.tools.workspace import ConfinementError, WorkspacePath, resolve
from vtcode.tools.write_file import WriteFileTool


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


@pytest.mark.parametrize(
    "raw", [".git/config", ".git/hooks/pre-commit", "sub/.git/HEAD", ".GIT/hooks/x", ".Git/config"]
)
def test_git_internals_are_read_only(workspace: Path, raw: str) -> None:
    assert resolve(workspace, raw).display == raw
    with pytest.raises(ConfinementError, match=r"inside a \.git directory"):
        resolve(workspace, raw, for_write=True)


def _own_config(raw: str) -> str:
    return (
        f"'{raw}' is part of vtcode's own configuration (vtcode.toml, .vtcode/ and .mcp.json at the "
        "workspace root), which the agent may not modify: vtcode's own configuration is edited by the "
        "user, not the agent"
    )


def _spool(raw: str) -> str:
    return (
        f"'{raw}' is inside .vtcode/context, where vtcode itself keeps command output; "
        "the agent may not modify it (reading it is fine)"
    )


@pytest.mark.parametrize(
    "raw",
    [
        "vtcode.toml",
        "./vtcode.toml",
        "sub/../vtcode.toml",
        "VTCODE.toml",
        ".vtcode",
        ".vtcode/vtcode.toml",
        ".vtcode/prompts/system.md",
        ".vtcode/prompts/append-system.md",
        ".vtcode/rules/python.md",
        ".VTCODE/vtcode.toml",
        ".mcp.json",
        "./.mcp.json",
        ".MCP.json",
    ],
)
def test_vtcode_own_configuration_is_read_only(workspace: Path, raw: str) -> None:
    (workspace / ".vtcode").mkdir()
    (workspace / "sub").mkdir()
    resolve(workspace, raw)
    with pytest.raises(ConfinementError) as caught:
        resolve(workspace, raw, for_write=True)
    assert caught.value.message == _own_config(raw)


def test_vtcode_own_configuration_is_read_only_by_absolute_path(workspace: Path) -> None:
    raw = str(workspace / ".vtcode" / "vtcode.toml")
    with pytest.raises(ConfinementError) as caught:
        resolve(workspace, raw, for_write=True)
    assert caught.value.message == _own_config(raw)


@pytest.mark.parametrize(
    "raw", [".vtcode/context/tool_outputs/run-1a2b.log", ".vtcode/context/.gitignore", ".vtcode/context"]
)
def test_command_output_spools_are_read_only(workspace: Path, raw: str) -> None:
    resolve(workspace, raw)
    with pytest.raises(ConfinementError) as caught:
        resolve(workspace, raw, for_write=True)
    assert caught.value.message == _spool(raw)


@pytest.mark.parametrize(
    "raw", ["sub/vtcode.toml", "sub/.vtcode/rules/x.md", "vtcode.toml.bak", ".vtcodex/a.md", "vtcode/x.py"]
)
def test_similar_names_elsewhere_stay_writable(workspace: Path, raw: str) -> None:
    assert resolve(workspace, raw, for_write=True).display == raw


def test_links_to_vtcode_own_configuration_are_read_only(workspace: Path) -> None:
    (workspace / "conf").mkdir()
    (workspace / "cfg").mkdir()
    # The config loader reads through these links, so their targets are configuration too.
    (workspace / "vtcode.toml").symlink_to("conf/vt.toml")
    (workspace / ".vtcode").symlink_to("cfg", target_is_directory=True)
    (workspace / "alias.toml").symlink_to("vtcode.toml")
    for raw in ("conf/vt.toml", "cfg/vtcode.toml", "cfg/prompts/system.md", "alias.toml"):
        with pytest.raises(ConfinementError) as caught:
            resolve(workspace, raw, for_write=True)
        assert caught.value.message == _own_config(raw)
    with pytest.raises(ConfinementError) as caught:
        resolve(workspace, "cfg/context/tool_outputs/x.log", for_write=True)
    assert caught.value.message == _spool("cfg/context/tool_outputs/x.log")


def test_vtcode_folder_linked_to_the_root_does_not_lock_the_workspace(workspace: Path) -> None:
    (workspace / ".vtcode").symlink_to(".", target_is_directory=True)
    assert resolve(workspace, "src/a.py", for_write=True).display == "src/a.py"
    with pytest.raises(ConfinementError):
        resolve(workspace, ".vtcode/vtcode.toml", for_write=True)


async def test_write_file_refuses_vtcode_config(workspace: Path) -> None:
    config = '[agent]\napproval = "full-auto"\n\n[approvals]\nallow = ["*"]\n'
    outcome = await WriteFileTool().run(
        {"path": ".vtcode/vtcode.toml", "content": config}, ToolContext(workspace=workspace)
    )
    assert outcome == ToolOutcome(content=f"write_file: {_own_config('.vtcode/vtcode.toml')}", is_error=True)
    assert not (workspace / ".vtcode").exists()


async def test_apply_patch_refuses_vtcode_config_and_changes_nothing(workspace: Path) -> None:
    (workspace / "vtcode.toml").write_text('[agent]\napproval = "ask"\n')
    patch = (
        "*** Begin Patch\n*** Add File: notes.md\n+hi\n"
        '*** Update File: vtcode.toml\n-approval = "ask"\n+approval = "full-auto"\n*** End Patch\n'
    )
    outcome = await ApplyPatchTool().run({"patch": patch}, ToolContext(workspace=workspace))
    assert outcome == ToolOutcome(content=f"apply_patch: {_own_config('vtcode.toml')}", is_error=True)
    assert sorted(os.listdir(workspace)) == ["vtcode.toml"]
    assert (workspace / "vtcode.toml").read_text() == '[agent]\napproval = "ask"\n'


async def test_apply_patch_cannot_move_a_file_onto_vtcode_config(workspace: Path) -> None:
    (workspace / "evil.toml").write_text("x\n")
    patch = (
        "*** Begin Patch\n*** Update File: evil.toml\n*** Move to: .vtcode/vtcode.toml\n"
        "-x\n+y\n*** End Patch\n"
    )
    outcome = await ApplyPatchTool().run({"patch": patch}, ToolContext(workspace=workspace))
    assert outcome == ToolOutcome(content=f"apply_patch: {_own_config('.vtcode/vtcode.toml')}", is_error=True)
    assert (workspace / "evil.toml").read_text() == "x\n"


def test_writes_elsewhere_are_unaffected(workspace: Path) -> None:
    assert resolve(workspace, "docs/vtcode.md", for_write=True) == WorkspacePath(
        real=workspace.resolve() / "docs" / "vtcode.md",
        lexical=workspace.resolve() / "docs" / "vtcode.md",
        display="docs/vtcode.md",
    )


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
