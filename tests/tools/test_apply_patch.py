"""apply_patch as the model uses it: real files, one summary, and all-or-nothing failures."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vtcode.protocol.events import FileChange
from vtcode.tools.apply_patch import ApplyPatchTool
from vtcode.tools.base import ToolContext, ToolOutcome


def _patch(*body: str) -> dict[str, str]:
    return {"patch": "\n".join(["*** Begin Patch", *body, "*** End Patch"])}


def _files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


async def test_add_update_delete_and_move_in_one_patch(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "b.py").write_text("import os\n\n\ndef main():\n    print('hi')\n")
    (workspace / "c.py").write_text("obsolete\n")
    (workspace / "d.py").write_text("VALUE = 1\n")
    (workspace / "d.py").chmod(0o755)
    outcome = await ApplyPatchTool().run(
        _patch(
            "*** Add File: pkg/a.py",
            "+print('new')",
            "*** Update File: b.py",
            "@@ def main():",
            "-    print('hi')",
            "+    print('hello')",
            "*** Delete File: c.py",
            "*** Update File: d.py",
            "*** Move to: lib/e.py",
            "-VALUE = 1",
            "+VALUE = 2",
        ),
        ctx,
    )
    assert outcome == ToolOutcome(
        content="Success. Updated: A pkg/a.py, M b.py, D c.py, R d.py -> lib/e.py",
        touched_paths=("pkg/a.py", "b.py", "c.py", "d.py", "lib/e.py"),
        changes=(
            FileChange(
                path="pkg/a.py",
                kind="add",
                diff="--- /dev/null\n+++ b/pkg/a.py\n@@ -0,0 +1 @@\n+print('new')\n",
            ),
            FileChange(
                path="b.py",
                kind="update",
                diff="--- a/b.py\n+++ b/b.py\n@@ -2,4 +2,4 @@\n \n \n def main():\n-    print('hi')\n"
                "+    print('hello')\n",
            ),
            FileChange(path="c.py", kind="delete"),
            FileChange(
                path="d.py",
                kind="move",
                move_to="lib/e.py",
                diff="--- a/d.py\n+++ b/d.py\n@@ -1 +1 @@\n-VALUE = 1\n+VALUE = 2\n",
            ),
        ),
    )
    assert _files(workspace) == {
        "b.py": b"import os\n\n\ndef main():\n    print('hello')\n",
        "lib/e.py": b"VALUE = 2\n",
        "pkg/a.py": b"print('new')\n",
    }
    assert stat.S_IMODE((workspace / "lib" / "e.py").stat().st_mode) == 0o755


async def test_update_with_several_hunks(ctx: ToolContext, workspace: Path) -> None:
    source = "".join(f"line {n}\n" for n in range(1, 31))
    (workspace / "f.txt").write_text(source)
    outcome = await ApplyPatchTool().run(
        _patch(
            "*** Update File: f.txt",
            "@@",
            " line 2",
            "-line 3",
            "+line three",
            " line 4",
            "@@",
            " line 14",
            "+line 14.5",
            " line 15",
            "@@",
            " line 28",
            "-line 29",
            "-line 30",
            "*** End of File",
        ),
        ctx,
    )
    assert outcome.content == "Success. Updated: M f.txt"
    expected = source.replace("line 3\n", "line three\n").replace("line 15\n", "line 14.5\nline 15\n")
    assert (workspace / "f.txt").read_text() == expected.replace("line 29\nline 30\n", "")


async def test_header_disambiguates_between_identical_blocks(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "m.py").write_text(
        "class A:\n    def close(self):\n        return None\n\n"
        "class B:\n    def close(self):\n        return None\n"
    )
    outcome = await ApplyPatchTool().run(
        _patch(
            "*** Update File: m.py",
            "@@ class B:",
            "     def close(self):",
            "-        return None",
            "+        return self.flush()",
        ),
        ctx,
    )
    assert not outcome.is_error, outcome.content
    assert (workspace / "m.py").read_text() == (
        "class A:\n    def close(self):\n        return None\n\n"
        "class B:\n    def close(self):\n        return self.flush()\n"
    )


async def test_whitespace_fuzz(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "w.py").write_text("def f():  \n\tx = 1\n\treturn x\n")
    outcome = await ApplyPatchTool().run(
        _patch("*** Update File: w.py", " def f():", "-    x = 1", "+\tx = 2", "     return x"),
        ctx,
    )
    assert not outcome.is_error, outcome.content
    assert (workspace / "w.py").read_text() == "def f():  \n\tx = 2\n\treturn x\n"


async def test_crlf_and_missing_final_newline_are_preserved(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "win.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    (workspace / "tail.txt").write_bytes(b"a\nb")
    outcome = await ApplyPatchTool().run(
        _patch(
            "*** Update File: win.txt",
            " one",
            "-two",
            "+2",
            "+2.5",
            "*** Update File: tail.txt",
            " a",
            "-b",
            "+B",
        ),
        ctx,
    )
    assert not outcome.is_error, outcome.content
    assert (workspace / "win.txt").read_bytes() == b"one\r\n2\r\n2.5\r\nthree\r\n"
    assert (workspace / "tail.txt").read_bytes() == b"a\nB"


async def test_end_of_file_marker_anchors_at_the_end(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "r.txt").write_text("}\nend\n}\nend\n")
    outcome = await ApplyPatchTool().run(
        _patch("*** Update File: r.txt", " }", "-end", "+END", "*** End of File"), ctx
    )
    assert not outcome.is_error, outcome.content
    assert (workspace / "r.txt").read_text() == "}\nend\n}\nEND\n"


async def test_failing_hunk_in_second_file_leaves_both_untouched(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "first.py").write_text("a = 1\n")
    (workspace / "src" / "second.py").write_text("b = 1\nc = 1\n")
    before = {name: os.stat(workspace / "src" / name).st_mtime_ns for name in os.listdir(workspace / "src")}
    outcome = await ApplyPatchTool().run(
        _patch(
            "*** Update File: src/first.py",
            "-a = 1",
            "+a = 2",
            "*** Add File: src/third.py",
            "+new",
            "*** Update File: src/second.py",
            "-b = 1",
            "+b = 2",
            "@@",
            "-c = 99",
            "+c = 2",
        ),
        ctx,
    )
    assert outcome == ToolOutcome(
        content=(
            "apply_patch: hunk 2 of src/second.py did not match:\n"
            "  -c = 99\n"
            "No file was changed. Read the file again (read_file) and copy its context and "
            "removed lines exactly, in order, below any earlier hunk."
        ),
        is_error=True,
    )
    assert _files(workspace) == {"src/first.py": b"a = 1\n", "src/second.py": b"b = 1\nc = 1\n"}
    after = {name: os.stat(workspace / "src" / name).st_mtime_ns for name in os.listdir(workspace / "src")}
    assert after == before


async def test_existence_errors(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "here.txt").write_text("x\n")
    (workspace / "there.txt").write_text("y\n")
    cases = {
        "apply_patch: cannot add here.txt: it already exists; use '*** Update File:' to change "
        "it, or delete it first": _patch("*** Add File: here.txt", "+x"),
        "apply_patch: cannot update gone.txt: no such file (use list_files to find the path)": _patch(
            "*** Update File: gone.txt", "-x", "+y"
        ),
        "apply_patch: cannot delete gone.txt: no such file (use list_files to find the path)": _patch(
            "*** Delete File: gone.txt"
        ),
        "apply_patch: cannot move here.txt to there.txt: the destination already exists": _patch(
            "*** Update File: here.txt", "*** Move to: there.txt", "-x", "+z"
        ),
    }
    for message, arguments in cases.items():
        assert await ApplyPatchTool().run(arguments, ctx) == ToolOutcome(content=message, is_error=True)
    assert _files(workspace) == {"here.txt": b"x\n", "there.txt": b"y\n"}


async def test_operations_see_earlier_ones_in_the_same_patch(ctx: ToolContext, workspace: Path) -> None:
    outcome = await ApplyPatchTool().run(
        _patch(
            "*** Add File: n.txt",
            "+one",
            "*** Update File: n.txt",
            "-one",
            "+two",
            "*** Update File: n.txt",
            "*** Move to: m.txt",
        ),
        ctx,
    )
    assert outcome.content == "Success. Updated: A n.txt, M n.txt, R n.txt -> m.txt"
    assert _files(workspace) == {"m.txt": b"two\n"}


async def test_binary_and_directory_targets_are_refused(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "blob.bin").write_bytes(b"\xff\xfe\x00")
    (workspace / "dir").mkdir()
    binary = await ApplyPatchTool().run(_patch("*** Update File: blob.bin", "-x", "+y"), ctx)
    assert binary.content == (
        "apply_patch: cannot update blob.bin: it is not UTF-8 text; apply_patch edits text files only"
    )
    directory = await ApplyPatchTool().run(_patch("*** Delete File: dir"), ctx)
    assert directory.content == "apply_patch: dir is a directory, not a file"


async def test_symlinks_inside_are_updated_through_but_not_deleted(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "real.txt").write_text("old\n")
    (workspace / "alias.txt").symlink_to("real.txt")
    updated = await ApplyPatchTool().run(_patch("*** Update File: alias.txt", "-old", "+new"), ctx)
    assert updated.changes == (
        FileChange(
            path="real.txt", kind="update", diff="--- a/real.txt\n+++ b/real.txt\n@@ -1 +1 @@\n-old\n+new\n"
        ),
    )
    assert (workspace / "real.txt").read_text() == "new\n"
    deleted = await ApplyPatchTool().run(_patch("*** Delete File: alias.txt"), ctx)
    assert deleted.content == (
        "apply_patch: cannot delete alias.txt: it is a symbolic link (to real.txt); "
        "use a shell command for links"
    )
    assert (workspace / "alias.txt").is_symlink()


async def test_git_internals_cannot_be_patched(ctx: ToolContext, workspace: Path) -> None:
    (workspace / ".git").mkdir()
    outcome = await ApplyPatchTool().run(_patch("*** Add File: .git/hooks/post-checkout", "+x"), ctx)
    assert outcome == ToolOutcome(
        content=(
            "apply_patch: '.git/hooks/post-checkout' is inside a .git directory, "
            "which the agent may not modify"
        ),
        is_error=True,
    )


async def test_syntax_error_is_a_tool_error(ctx: ToolContext) -> None:
    outcome = await ApplyPatchTool().run({"patch": "--- a/x\n+++ b/x\n"}, ctx)
    assert outcome == ToolOutcome(
        content="apply_patch: invalid patch: the first line must be '*** Begin Patch'",
        is_error=True,
    )
