"""write_file: creation with parent directories, atomic replacement, kept permissions."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vtcode.protocol.events import FileChange
from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.write_file import WriteFileTool


async def test_creates_file_and_parent_directories(ctx: ToolContext, workspace: Path) -> None:
    outcome = await WriteFileTool().run({"path": "pkg/sub/mod.py", "content": "x = 1\n"}, ctx)
    assert outcome == ToolOutcome(
        content="Created (6 bytes, 1 lines).",
        touched_paths=("pkg/sub/mod.py",),
        changes=(
            FileChange(
                path="pkg/sub/mod.py",
                kind="add",
                diff="--- /dev/null\n+++ b/pkg/sub/mod.py\n@@ -0,0 +1 @@\n+x = 1\n",
            ),
        ),
    )
    assert (workspace / "pkg" / "sub" / "mod.py").read_text() == "x = 1\n"


async def test_replaces_existing_file_keeping_its_mode(ctx: ToolContext, workspace: Path) -> None:
    script = workspace / "run.sh"
    script.write_text("old\n")
    script.chmod(0o751)
    outcome = await WriteFileTool().run({"path": "run.sh", "content": "#!/bin/sh\necho hi"}, ctx)
    assert outcome == ToolOutcome(
        content="Updated (17 bytes, 2 lines).",
        touched_paths=("run.sh",),
        changes=(
            FileChange(
                path="run.sh",
                kind="update",
                diff="--- a/run.sh\n+++ b/run.sh\n@@ -1 +1,2 @@\n-old\n+#!/bin/sh\n+echo hi\n"
                "\\ No newline at end of file\n",
            ),
        ),
    )
    assert script.read_text() == "#!/bin/sh\necho hi"
    assert stat.S_IMODE(script.stat().st_mode) == 0o751
    # No temporary file is left beside it.
    assert sorted(os.listdir(workspace)) == ["run.sh"]


async def test_writes_through_a_symlink_inside_the_workspace(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "real.txt").write_text("old\n")
    (workspace / "alias.txt").symlink_to("real.txt")
    outcome = await WriteFileTool().run({"path": "alias.txt", "content": "new\n"}, ctx)
    assert outcome.changes == (
        FileChange(
            path="real.txt", kind="update", diff="--- a/real.txt\n+++ b/real.txt\n@@ -1 +1 @@\n-old\n+new\n"
        ),
    )
    assert (workspace / "alias.txt").is_symlink()
    assert (workspace / "real.txt").read_text() == "new\n"


async def test_directory_and_file_parent_are_errors(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "dir").mkdir()
    (workspace / "plain.txt").write_text("x")
    on_dir = await WriteFileTool().run({"path": "dir", "content": ""}, ctx)
    assert on_dir == ToolOutcome(content="write_file: dir is a directory; give a file path", is_error=True)
    under_file = await WriteFileTool().run({"path": "plain.txt/child.txt", "content": ""}, ctx)
    assert under_file == ToolOutcome(
        content=(
            "write_file: cannot create plain.txt/child.txt: "
            "one of its parent paths is a file, not a directory"
        ),
        is_error=True,
    )


async def test_missing_content_is_an_error(ctx: ToolContext) -> None:
    outcome = await WriteFileTool().run({"path": "a.txt"}, ctx)
    assert outcome == ToolOutcome(
        content="write_file: invalid arguments: Object missing required field `content`",
        is_error=True,
    )
