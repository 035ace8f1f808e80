"""Peak memory of `read_file` and `grep_files` on a file that is one 200 MB line (minified, a dump).

Each case runs in a fresh interpreter that imports the tools first; its peak RSS is the kernel's
VmHWM (ru_maxrss would carry the parent's peak across fork and exec). Baselines measured in the same
run: the interpreter with the tools imported and nothing done, and a plain `open(...).read()` of the
file. For the ripgrep engine, the peak of its rg processes is reported too: exactly, when GNU time is
installed (each rg runs under `/usr/bin/time -f %M`, which forks it from a small process), else
RUSAGE_CHILDREN (an upper bound, as it includes what rg shared with the interpreter when forked).
rg is given the file by name, and (second case) the directory that holds it, which rg reads another
way (no memory map).

Then a normal search: grep_files (ripgrep engine) on a generated tree of ordinary source files, wall
time against `rg -n` run directly, median of runs; run the bench before and after a change to compare
the ratios.

Target: every vtcode case and every rg within 100 MB, whatever the file size.
Run: .venv/bin/python bench/long_line_memory_bench.py [--size-mb N] [--files N] [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_CHILD = """
import asyncio, json, resource, sys
from pathlib import Path
from vtcode.tools.base import ToolContext
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.read_file import ReadFileTool
workspace, case, rg = Path(sys.argv[1]), sys.argv[2], sys.argv[3] or None
search = {"pattern": "needle", "path": "sub" if case.endswith("directory)") else "big.txt"}
size = 0
if case == "plain read":
    size = len((workspace / "big.txt").read_bytes())
elif case != "baseline":
    tool, arguments = {
        "read_file": (ReadFileTool(), {"path": "big.txt"}),
        "grep_files (python)": (GrepFilesTool(use_ripgrep=False), search),
        "grep_files (ripgrep)": (GrepFilesTool(ripgrep=rg), search),
        "grep_files (ripgrep, directory)": (GrepFilesTool(ripgrep=rg), search),
    }[case]
    outcome = asyncio.run(tool.run(arguments, ToolContext(workspace=workspace)))
    size = len(outcome.content.encode())
status = Path("/proc/self/status").read_text()
peak_kb = int(next(l.split()[1] for l in status.splitlines() if l.startswith("VmHWM:")))
children_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"peak_kb": peak_kb, "children_kb": children_kb, "output_bytes": size}))
"""

CASES = [
    "baseline",
    "plain read",
    "read_file",
    "grep_files (python)",
    "grep_files (ripgrep)",
    "grep_files (ripgrep, directory)",
]
# rg under GNU time, which appends rg's own peak RSS (KB) to the file named in the environment.
_TIMED_RG = """#!/bin/sh
exec /usr/bin/time -a -o "$BENCH_RG_PEAKS" -f %M "$BENCH_RG" "$@"
"""
_NORMAL_PATTERN = r"TODO\(bench\): \w+"


def _write_one_line_file(path: Path, size: int) -> None:
    block = b"x" * (1 << 20)
    with path.open("wb") as handle:
        for _ in range(size // 2 // len(block)):
            handle.write(block)
        handle.write(b"needle")
        for _ in range(size // 2 // len(block)):
            handle.write(block)
        handle.write(b"\n")


def _measure(workspace: Path, case: str, rg: str) -> dict[str, int]:
    peaks = workspace.parent / "rg-peaks.txt"
    peaks.unlink(missing_ok=True)
    wrapper = workspace.parent / "timed-rg"
    timed = bool(rg) and Path("/usr/bin/time").exists()
    if timed:
        wrapper.write_text(_TIMED_RG)
        wrapper.chmod(0o755)
    env = dict(os.environ, BENCH_RG=rg, BENCH_RG_PEAKS=str(peaks))
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(workspace), case, str(wrapper) if timed else rg],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    result: dict[str, int] = json.loads(done.stdout)
    if timed and peaks.exists():
        # A line per rg process; one that died also left a "Command terminated by signal" line.
        result["rg_kb"] = max(int(line) for line in peaks.read_text().split() if line.isdigit())
    return result


def _normal_tree(root: Path, files: int) -> None:
    """Ordinary source files, one in 50 with a line the pattern matches."""
    body = "def handler_{n}(payload: bytes) -> int:\n    return len(payload) + {n}\n" * 20
    for index in range(files):
        directory = root / f"pkg{index // 500:02d}" / f"mod{index // 50 % 10}"
        directory.mkdir(parents=True, exist_ok=True)
        todo = f"# TODO(bench): fix_{index}\n" if index % 50 == 0 else ""
        (directory / f"file_{index % 50:02d}.py").write_text(todo + body.format(n=index))


def _normal_search(root: Path, rg: str, runs: int) -> tuple[float, float]:
    """Median seconds of `rg -n` and of grep_files on the same tree, after a warm-up run of each."""
    from vtcode.tools.base import ToolContext
    from vtcode.tools.grep_files import GrepFilesTool

    tool = GrepFilesTool(ripgrep=rg)
    ctx = ToolContext(workspace=root, max_output_bytes=100_000_000)
    arguments = {"pattern": _NORMAL_PATTERN, "max_results": 5000}

    def direct() -> None:
        subprocess.run([rg, "--no-config", "-n", _NORMAL_PATTERN], cwd=root, capture_output=True, check=False)

    def tool_call() -> None:
        outcome = asyncio.run(tool.run(arguments, ctx))
        if outcome.is_error or outcome.extra.get("engine") != "ripgrep":
            raise SystemExit(f"grep_files failed: {outcome.content}")

    calls = (direct, tool_call)
    samples: list[list[float]] = [[], []]
    for call in calls:
        call()
    # Alternated, so that a change in the machine's load weighs on both alike.
    for _ in range(runs):
        for call, taken in zip(calls, samples, strict=True):
            started = time.perf_counter()
            call()
            taken.append(time.perf_counter() - started)
    return statistics.median(samples[0]), statistics.median(samples[1])


def main() -> None:
    """Generate the file, run each case in its own interpreter, print peaks and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=200)
    parser.add_argument("--files", type=int, default=5000, help="files in the normal-search tree")
    parser.add_argument("--runs", type=int, default=9, help="timed runs of the normal search")
    args = parser.parse_args()
    if not Path("/proc/self/status").exists():
        sys.exit("this benchmark reads peak memory from Linux /proc")
    rg = shutil.which("rg", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "workspace"
        (workspace / "sub").mkdir(parents=True)
        _write_one_line_file(workspace / "sub" / "big.txt", args.size_mb << 20)
        os.link(workspace / "sub" / "big.txt", workspace / "big.txt")
        print(f"one line of {args.size_mb} MB; peak RSS (VmHWM) per case")
        baseline = 0
        for case in CASES:
            if "(ripgrep" in case and rg is None:
                print(f"{case:<32} skipped: rg is not installed")
                continue
            result = _measure(workspace, case, rg or "")
            peak = result["peak_kb"]
            baseline = baseline or peak
            line = (
                f"{case:<32} {peak / 1024:7.1f} MB  {peak / baseline:5.2f}x baseline"
                f"  output {result['output_bytes']:,} bytes"
            )
            if "rg_kb" in result:
                line += f"  rg peak {result['rg_kb'] / 1024:.1f} MB"
            elif "(ripgrep" in case:
                line += f"  rg peak <= {result['children_kb'] / 1024:.1f} MB"
            print(line)
        if rg is None:
            return
        tree = Path(tmp) / "tree"
        _normal_tree(tree, args.files)
        direct, tool = _normal_search(tree, rg, args.runs)
        print(
            f"normal search, {args.files:,} files: rg -n {direct * 1000:.1f} ms,"
            f" grep_files {tool * 1000:.1f} ms, {tool / direct:.2f}x rg (median of {args.runs})"
        )


if __name__ == "__main__":
    main()
