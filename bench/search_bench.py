"""`grep_files` and `list_files` on a generated 50,000-file repository, against ripgrep run directly.

The tree (default 50,000 source files of ~1 KB in nested package directories, plus a `.gitignore` that
hides `build/` directories and `*.log` files, and a few binary files) is generated in a temp directory,
then `git init`, `git add -A`, `git commit` (that takes a while; `--tree DIR` keeps and reuses it).

Measured, wall time per call, median of N runs with a warm page cache:
- `GrepFilesTool().run({"pattern": P, "max_results": 5000})` vs `rg -n P` in the same directory;
- `ListFilesTool().run({"max_results": 10000})` vs `rg --files`.
Both tools run with `ToolContext(workspace=tree, max_output_bytes=100 MB)` so their output is not clipped
by bytes. The pattern hits about 2% of the files (a moderate number of lines, all below grep_files'
ceiling of 5,000, so the tool returns every match that rg prints). `list_files` returns at most 10,000
paths (its ceiling) while `rg --files` prints all of them; the tool still lists and sorts the whole set.
The same is repeated without git (the `.git` directory moved aside; rg gets `--no-require-git` so it
honours `.gitignore` there too), where the tools walk the tree themselves.

Figures are ratios tool / rg (target <= 1.5x).
Run: .venv/bin/python bench/search_bench.py [--quick] [--files N] [--runs N] [--tree DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from vtcode.tools.base import ToolContext
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.list_files import ListFilesTool

RG = shutil.which("rg") or "/usr/bin/rg"
PATTERN = r"TODO\(bench\): \w+"
TARGET = 1.5
_MARKER = ".bench-tree-files"

_BODY = (
    "import os\nimport sys\nfrom typing import Any\n\n\n"
    "class Handler{n}:\n"
    '    """Handles requests of kind {n}."""\n\n'
    "    def __init__(self, config: dict[str, Any]) -> None:\n"
    "        self.config = config\n"
    "        self.retries = config.get('retries', 3)\n\n"
    "    def run(self, payload: bytes) -> int:\n"
    "        total = 0\n"
    "        for chunk in payload.split(b'\\n'):\n"
    "            total += len(chunk)\n"
    "        return total\n\n"
    "    def describe(self) -> str:\n"
    "        return f'handler {n} with {{self.retries}} retries'\n"
)


def generate(root: Path, files: int) -> None:
    """Write `files` source files (and some ignored and binary ones) below `root`, then commit them."""
    rng = random.Random(42)
    root.mkdir(parents=True, exist_ok=True)
    (root / ".gitignore").write_text("build/\n*.log\n__pycache__/\n")
    per_dir = 50
    for index in range(files):
        top, mid, leaf = index // 2500, (index // per_dir) % 50, index % per_dir
        directory = root / f"pkg{top:02d}" / f"mod{mid:02d}"
        if leaf == 0:
            directory.mkdir(parents=True, exist_ok=True)
        text = _BODY.format(n=index)
        if rng.random() < 0.02:
            lines = text.splitlines(keepends=True)
            for _ in range(rng.randint(1, 3)):
                lines.insert(
                    rng.randrange(len(lines)), f"    # TODO(bench): fix_{index}_{rng.randint(0, 99)}\n"
                )
            text = "".join(lines)
        (directory / f"file_{leaf:02d}.py").write_text(text)
        if leaf == 0 and mid % 10 == 0:
            # Ignored content that would match: the tools and rg must both leave it out.
            build = directory / "build"
            build.mkdir(exist_ok=True)
            (build / "gen.py").write_text("# TODO(bench): generated\n" * 20)
            (directory / "run.log").write_text("TODO(bench): log line\n" * 20)
            (directory / "blob.bin").write_bytes(b"\0\1\2TODO(bench): binary\n" * 10)
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    ident = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=env)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    subprocess.run(["git", *ident, "commit", "-q", "-m", "bench tree"], cwd=root, check=True, env=env)
    (root / ".git" / _MARKER).write_text(str(files))


def median_wall(runs: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """Median wall seconds of `fn()` after one warm-up call, and the last result."""
    result = fn()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples), result


def rg(root: Path, *args: str) -> bytes:
    """Run ripgrep in `root` and return its stdout (exit 1, no match, is fine)."""
    done = subprocess.run([RG, "--no-config", *args], cwd=root, capture_output=True, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(done.stderr.decode(errors="replace"))
    return done.stdout


def tool_call(
    loop: asyncio.AbstractEventLoop, tool: Any, arguments: dict[str, Any], root: Path
) -> Callable[[], str]:
    """A callable that runs one tool call to completion and returns its content."""
    ctx = ToolContext(workspace=root, max_output_bytes=100_000_000)

    def call() -> str:
        run: Awaitable[Any] = tool.run(arguments, ctx)
        outcome = loop.run_until_complete(run)
        if outcome.is_error:
            raise RuntimeError(outcome.content)
        return str(outcome.content)

    return call


def compare(label: str, runs: int, ours: Callable[[], str], theirs: Callable[[], bytes]) -> float:
    """Print one line tool vs rg and return the ratio."""
    base, rg_out = median_wall(runs, theirs)
    mine, content = median_wall(runs, ours)
    rg_lines = rg_out.count(b"\n")
    tool_lines = sum(1 for line in content.splitlines() if not line.startswith("["))
    ratio = mine / base
    verdict = "met" if ratio <= TARGET else "MISSED"
    print(
        f"{label:<30} {base * 1000:>9.1f} {mine * 1000:>10.1f} {ratio:>6.2f}x {verdict:>6}"
        f" {rg_lines:>9,} {tool_lines:>10,}"
    )
    return ratio


def bench(root: Path, runs: int) -> None:
    loop = asyncio.new_event_loop()
    grep = tool_call(loop, GrepFilesTool(), {"pattern": PATTERN, "max_results": 5000}, root)
    listing = tool_call(loop, ListFilesTool(), {"max_results": 10_000}, root)
    print(
        f"{'':<30} {'rg ms':>9} {'tool ms':>10} {'ratio':>7} {'<=1.5x':>6} {'rg lines':>9} {'tool lines':>10}"
    )
    try:
        compare("git: grep_files vs rg -n", runs, grep, lambda: rg(root, "-n", PATTERN))
        compare("git: list_files vs rg --files", runs, listing, lambda: rg(root, "--files"))
        aside = root.parent / (root.name + ".git-aside")
        os.rename(root / ".git", aside)
        try:
            no_git = ("--no-require-git",)
            compare("no git: grep_files vs rg", runs, grep, lambda: rg(root, *no_git, "-n", PATTERN))
            compare("no git: list_files vs rg", runs, listing, lambda: rg(root, *no_git, "--files"))
        finally:
            os.rename(aside, root / ".git")
    finally:
        loop.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="5,000 files, 3 runs")
    parser.add_argument("--files", type=int, default=None)
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--tree", type=Path, default=None, help="generate into (or reuse) this directory")
    args = parser.parse_args()
    files = args.files or (5_000 if args.quick else 50_000)
    runs = args.runs or (3 if args.quick else 7)
    temp = None
    if args.tree is None:
        temp = tempfile.mkdtemp(prefix="vtcode-search-bench-")
        root = Path(temp) / "repo"
    else:
        root = args.tree.resolve()
    try:
        marker = root / ".git" / _MARKER
        if marker.exists() and marker.read_text() == str(files):
            print(f"reusing {files:,}-file tree in {root}")
        else:
            if root.exists():
                raise SystemExit(f"{root} exists and is not a {files:,}-file bench tree")
            started = time.perf_counter()
            generate(root, files)
            print(f"generated and committed {files:,} files in {time.perf_counter() - started:.1f} s")
        print(f"pattern {PATTERN!r}; wall time, median of {runs} runs")
        bench(root, runs)
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    main()
