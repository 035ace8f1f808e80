"""read_file: numbered windows, the continuation marker, binary files and undecodable bytes."""

from __future__ import annotations

from pathlib import Path

from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.read_file import ReadFileTool


def _numbered(first: int, lines: list[str]) -> str:
    return "\n".join(f"{number:>6}\t{line}" for number, line in enumerate(lines, start=first))


async def test_whole_small_file(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "a.py").write_text("import os\n\nprint(os.sep)\n")
    outcome = await ReadFileTool().run({"path": "a.py"}, ctx)
    assert outcome == ToolOutcome(
        content="     1\timport os\n     2\t\n     3\tprint(os.sep)",
        touched_paths=("a.py",),
        extra={"offset": 1, "end_line": 3, "total_lines": 3},
    )


async def test_offset_and_limit_select_a_range(ctx: ToolContext, workspace: Path) -> None:
    lines = [f"line {n}" for n in range(1, 21)]
    (workspace / "f.txt").write_text("\n".join(lines) + "\n")
    outcome = await ReadFileTool().run({"path": "f.txt", "offset": 12, "limit": 3}, ctx)
    assert outcome.content == (
        _numbered(12, lines[11:14])
        + "\n[truncated: showing lines 12-14 of 20; call read_file with offset=15 to continue]"
    )
    assert outcome.extra == {"offset": 12, "end_line": 14, "total_lines": 20}


async def test_range_reaching_the_end_has_no_marker(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "f.txt").write_text("a\nb\nc")  # no final newline
    outcome = await ReadFileTool().run({"path": "f.txt", "offset": "2", "limit": 10}, ctx)
    assert outcome.content == _numbered(2, ["b", "c"])


async def test_default_limit_is_2000_lines(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "big.txt").write_text("".join(f"{n}\n" for n in range(1, 2501)))
    wide = ToolContext(workspace=ctx.workspace, max_output_bytes=1_000_000)
    outcome = await ReadFileTool().run({"path": "big.txt"}, wide)
    assert outcome.content.endswith(
        "  2000\t2000\n[truncated: showing lines 1-2000 of 2500; call read_file with offset=2001 to continue]"
    )


async def test_byte_cap_truncates_with_continuation_marker(workspace: Path) -> None:
    lines = [f"{'x' * 90} {n}" for n in range(1, 101)]
    (workspace / "wide.txt").write_text("\n".join(lines) + "\n")
    small = ToolContext(workspace=workspace, max_output_bytes=1256)
    outcome = await ReadFileTool().run({"path": "wide.txt"}, small)
    # The 1000 bytes left after the marker's reserve hold nine numbered lines of ~101 bytes.
    assert outcome.content == (
        _numbered(1, lines[:9])
        + "\n[truncated: showing lines 1-9 of 100; call read_file with offset=10 to continue]"
    )
    following = await ReadFileTool().run({"path": "wide.txt", "offset": 10}, small)
    assert following.content.startswith(_numbered(10, lines[9:10]))


async def test_single_line_over_the_budget_is_cut(workspace: Path) -> None:
    (workspace / "min.js").write_text("a" * 5000 + "\nnext\n")
    small = ToolContext(workspace=workspace, max_output_bytes=1256)
    outcome = await ReadFileTool().run({"path": "min.js"}, small)
    first, marker = outcome.content.split("\n")
    assert first.startswith("     1\taaaa")
    assert first.endswith(" …[line cut: 5,000 bytes in all]")
    assert len(first.encode()) <= 1000
    assert marker == "[truncated: showing lines 1-1 of 2; call read_file with offset=2 to continue]"


async def test_binary_file_is_an_error(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x01" * 100)
    outcome = await ReadFileTool().run({"path": "img.png"}, ctx)
    assert outcome == ToolOutcome(
        content="read_file: img.png: binary file, 116 bytes; read_file shows text files only",
        is_error=True,
    )


async def test_invalid_utf8_is_replaced_not_fatal(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "latin1.txt").write_bytes("café\n".encode("latin-1") + b"ok\n")
    outcome = await ReadFileTool().run({"path": "latin1.txt"}, ctx)
    assert outcome.content == "     1\tcaf\ufffd\n     2\tok"


async def test_crlf_line_endings_are_not_shown(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "win.txt").write_bytes(b"one\r\ntwo\r\n")
    outcome = await ReadFileTool().run({"path": "win.txt"}, ctx)
    assert outcome.content == "     1\tone\n     2\ttwo"


async def test_empty_file(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "empty.txt").write_bytes(b"")
    outcome = await ReadFileTool().run({"path": "empty.txt"}, ctx)
    assert outcome.content == "[empty.txt is empty: 0 lines]"
    assert not outcome.is_error


async def test_offset_past_the_end_is_an_error(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "f.txt").write_text("a\nb\n")
    outcome = await ReadFileTool().run({"path": "f.txt", "offset": 5}, ctx)
    assert outcome == ToolOutcome(
        content=(
            "read_file: offset 5 is past the end of f.txt, which has 2 lines; use an offset between 1 and 2"
        ),
        is_error=True,
    )


async def test_missing_file_and_directory_are_errors(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "src").mkdir()
    missing = await ReadFileTool().run({"path": "nope.py"}, ctx)
    assert missing == ToolOutcome(
        content="read_file: file not found: nope.py (use list_files to find the path)",
        is_error=True,
    )
    directory = await ReadFileTool().run({"path": "src"}, ctx)
    assert directory.content == "read_file: src is a directory; use list_files to see its files"


async def test_bad_arguments_are_errors(ctx: ToolContext) -> None:
    cases = {
        "read_file: invalid arguments: Object missing required field `path`": {},
        "read_file: invalid arguments: Expected `int` >= 1 - at `$.offset`": {
            "path": "a",
            "offset": 0,
        },
        "read_file: invalid arguments: Object contains unknown field `lines`": {
            "path": "a",
            "lines": 3,
        },
    }
    for message, arguments in cases.items():
        assert await ReadFileTool().run(arguments, ctx) == ToolOutcome(content=message, is_error=True)
