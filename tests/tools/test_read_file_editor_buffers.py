"""read_file with an editor's buffers: the buffer wins over the disk, confinement still applies."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vtcode.tools.base import ToolContext
from vtcode.tools.read_file import ReadFileTool


@dataclass
class Buffers:
    """An editor that holds some files open (unsaved), and says nothing about the others."""

    open: dict[Path, str]
    asked: list[Path] = field(default_factory=list)

    async def read_text(self, path: Path) -> str | None:
        """The open buffer of `path`, or None."""
        self.asked.append(path)
        return self.open.get(path)

    async def written(self, path: Path, text: str) -> None:
        """The editor takes the new text."""
        self.open[path] = text


async def test_an_open_buffer_is_read_instead_of_the_disk(workspace: Path) -> None:
    (workspace / "a.txt").write_text("on disk\n")
    buffers = Buffers({(workspace / "a.txt").resolve(): "unsaved one\nunsaved two\n"})
    ctx = ToolContext(workspace=workspace, buffers=buffers)
    outcome = await ReadFileTool().run({"path": "a.txt", "offset": 2}, ctx)
    assert outcome.content == "     2\tunsaved two"
    assert outcome.extra == {"offset": 2, "end_line": 2, "total_lines": 2}


async def test_a_file_the_editor_does_not_hold_is_read_from_disk(workspace: Path) -> None:
    (workspace / "b.txt").write_text("on disk\n")
    buffers = Buffers({})
    outcome = await ReadFileTool().run({"path": "b.txt"}, ToolContext(workspace=workspace, buffers=buffers))
    assert outcome.content == "     1\ton disk"
    assert buffers.asked == [(workspace / "b.txt").resolve()]


async def test_paths_outside_the_workspace_are_refused_before_the_editor_is_asked(
    workspace: Path, tmp_path: Path
) -> None:
    buffers = Buffers({})
    outcome = await ReadFileTool().run(
        {"path": "../elsewhere.txt"}, ToolContext(workspace=workspace, buffers=buffers)
    )
    assert outcome.is_error
    assert buffers.asked == []
