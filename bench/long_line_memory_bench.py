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
time against `rg -n` run directly; with `--before COMMIT`, also grep_files as it was at that commit
(its `src/` from `git archive`), and the ratio now / before of wall and CPU time (rg's included).
Each grep_files variant runs in its own interpreter; rounds alternate them.

Target: every vtcode case and every rg within 100 MB, whatever the file size.
Run: .venv/bin/python bench/long_line_memory_bench.py [--size-mb N] [--files N] [--rounds N] [--runs N]
     [--before COMMIT]
"""

from __future__ import annotations

import argparse
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
# One grep_files call timed `runs` times after a warm-up: median wall and CPU seconds, rg's CPU included.
_SEARCH_CHILD = """
import asyncio, json, resource, statistics, sys, time
from pathlib import Path
from vtcode.tools.base import ToolContext
from vtcode.tools.grep_files import GrepFilesTool
tree, rg, runs, pattern = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
tool = GrepFilesTool(ripgrep=rg)
ctx = ToolContext(workspace=tree, max_output_bytes=100_000_000)
def cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
def call():
    outcome = asyncio.run(tool.run({"pattern": pattern, "max_results": 5000}, ctx))
    assert not outcome.is_error and outcome.extra["engine"] == "ripgrep", outcome.content
call()
walls, cpus = [], []
for _ in range(runs):
    started, used = time.perf_counter(), cpu()
    call()
    walls.append(time.perf_counter() - started)
    cpus.append(cpu() - used)
print(json.dumps([statistics.median(walls), statistics.median(cpus)]))
"""


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


def _search_timings(tree: Path, rg: str, runs: int, src: Path | None) -> tuple[float, float]:
    """Median wall and CPU seconds (rg's included) of grep_files in a fresh interpreter, `src` first."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    done = subprocess.run(
        [sys.executable, "-c", _SEARCH_CHILD, str(tree), rg, str(runs), _NORMAL_PATTERN],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    wall, cpu = json.loads(done.stdout)
    return float(wall), float(cpu)


def _direct_rg(tree: Path, rg: str, runs: int) -> float:
    """Median wall seconds of `rg -n` on the tree."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([rg, "--no-config", "-n", _NORMAL_PATTERN], cwd=tree, capture_output=True, check=False)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _normal_search(tree: Path, rg: str, rounds: int, runs: int, before: str | None) -> None:
    """Print grep_files' time on an ordinary tree against rg, and against the code at `before`."""
    src = None
    if before is not None:
        # The code as it was, beside the tree; the bench itself stays the current one.
        archive = subprocess.run(["git", "archive", before, "src"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree.parent)], input=archive, check=True)
        src = tree.parent / "src"
    variants: dict[str, Path | None] = {"grep_files": None}
    if src is not None:
        variants[f"grep_files at {before}"] = src
    direct: list[float] = []
    timings: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    # Rounds alternate the variants, so that a change in the machine's load weighs on all alike.
    for _ in range(rounds):
        direct.append(_direct_rg(tree, rg, runs))
        for name, path in variants.items():
            timings[name].append(_search_timings(tree, rg, runs, path))
    base = statistics.median(direct)
    print(f"normal search, {tree.name}: median of {rounds} rounds x {runs} runs")
    print(f"{'rg -n':<32} {base * 1000:7.1f} ms")
    medians = {}
    for name, samples in timings.items():
        wall = statistics.median(sample[0] for sample in samples)
        cpu = statistics.median(sample[1] for sample in samples)
        medians[name] = (wall, cpu)
        print(f"{name:<32} {wall * 1000:7.1f} ms  {wall / base:5.2f}x rg  cpu {cpu * 1000:.1f} ms")
    if src is not None:
        (wall, cpu), (old_wall, old_cpu) = medians.values()
        print(f"{'now / before':<32} wall {wall / old_wall:.2f}x  cpu {cpu / old_cpu:.2f}x")


def main() -> None:
    """Generate the file, run each case in its own interpreter, print peaks and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=200)
    parser.add_argument("--files", type=int, default=5000, help="files in the normal-search tree")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per round of the normal search")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the normal search")
    parser.add_argument("--before", help="also time the normal search with the code at this git commit")
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
        tree = Path(tmp) / f"{args.files:,} ordinary files"
        _normal_tree(tree, args.files)
        _normal_search(tree, rg, args.rounds, args.runs, args.before)


if __name__ == "__main__":
    main()
