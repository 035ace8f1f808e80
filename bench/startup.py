"""Start-up cost of `vtcode --version`, `vtcode --help` and `vtcode exec` to first byte on the wire.

Figures are ratios to `python3 -c pass` measured in the same run (these machines are noisy).
With `--compare-src DIR` (the `src/` of another checkout, e.g. `git archive` of an older commit) the
first-byte runs alternate between this tree and that one, so both see the same machine load.
Run: .venv/bin/python bench/startup.py [--runs N] [--compare-src DIR] [--modes plain,stdin,json]
Each mode is a way scripts launch `exec`, measured in the same interleaved rounds: `plain` (stdin
closed), `stdin` (a diff piped in next to the prompt; `--stdin BYTES` sets its size) and `json`
(`--output-format json`; an older tree without it runs `--json`, its machine-readable mode).
`--args` adds exec options for this tree and `--compare-args` for the other one.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

_SCRIPT = Path(sys.executable).with_name("vtcode")
# The installed console script is what users run; fall back to the module.
VTCODE = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "vtcode"]


# This machine sets PYTHONDONTWRITEBYTECODE=1, which makes an editable checkout recompile every module on
# every run (~70 ms); an installed vtcode has its .pyc files, so measure with them.
_BASE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env or _BASE_ENV, check=False
    )
    return time.perf_counter() - started


def median_of(runs: int, argv: list[str], env: dict[str, str] | None = None) -> float:
    timed(argv, env)  # warm the page cache and .pyc files
    return statistics.median(timed(argv, env) for _ in range(runs))


Sample = tuple[float, float]


@dataclass(frozen=True)
class Launch:
    """How `exec` is started: its extra options per tree and the bytes piped into its stdin."""

    name: str
    args: tuple[str, ...] = ()
    compare_args: tuple[str, ...] = ()
    stdin: bytes | None = None


def _diff(size: int) -> bytes:
    """`size` bytes of something that looks like `git diff` output."""
    return (b"diff --git a/x b/x\n" * (size // 19 + 1))[:size]


def launches(
    modes: list[str], args: tuple[str, ...], compare_args: tuple[str, ...], stdin: int
) -> list[Launch]:
    """The launches to measure, one per mode."""
    made = {
        "plain": Launch("plain", args, compare_args),
        "stdin": Launch("stdin", args, compare_args, stdin=_diff(stdin)),
        "json": Launch("json", (*args, "--output-format", "json"), (*compare_args, _old_json_flag()), None),
    }
    return [made[mode] for mode in modes]


class _Compare:
    """The --compare-src tree (set by main); its json flag depends on what it knows."""

    src: str | None = None


def _old_json_flag() -> str:
    if _Compare.src is None:
        return "--json"
    parser = Path(_Compare.src) / "vtcode" / "cli" / "exec_options.py"
    return "--output-format=json" if parser.exists() and "output-format" in parser.read_text() else "--json"


def first_byte(
    runs: int, launch_list: list[Launch], compare_src: str | None = None
) -> dict[str, tuple[Sample, Sample | None]]:
    """Per launch, median wall and CPU time from spawning `vtcode exec` to its first request byte.

    The second pair is the same for the tree at `compare_src`; trees and launches alternate in every
    round (the order rotates), so all of them see the same machine load. CPU time (user +
    system of the child until it is killed at the first byte) varies far less than wall time on a
    machine other jobs share.
    """
    trees: list[str | None] = [None] if compare_src is None else [None, compare_src]
    cells = [(launch.name, tree) for launch in launch_list for tree in trees]
    samples: dict[tuple[str, str | None], list[Sample]] = {cell: [] for cell in cells}
    by_name = {launch.name: launch for launch in launch_list}
    for index in range(runs + 1):
        shift = index % len(cells)
        for name, tree in cells[shift:] + cells[:shift]:
            sample = _first_byte_once(tree, by_name[name])
            if sample is not None:
                samples[(name, tree)].append(sample)

    def medians(cell: tuple[str, str | None]) -> Sample:
        kept = samples[cell][1:]  # the first round warms the page cache
        return statistics.median(w for w, _ in kept), statistics.median(c for _, c in kept)

    return {
        launch.name: (
            medians((launch.name, None)),
            medians((launch.name, compare_src)) if compare_src is not None else None,
        )
        for launch in launch_list
    }


def _first_byte_once(src: str | None, launch: Launch) -> Sample | None:
    """One launch of `vtcode exec` (from `src` when given) until its first request byte arrives."""
    home = tempfile.mkdtemp()
    work = tempfile.mkdtemp()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    arrived: list[float] = []

    def accept(srv: socket.socket = server, out: list[float] = arrived) -> None:
        conn, _ = srv.accept()
        conn.recv(1)
        out.append(time.perf_counter())
        conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    extra = {} if src is None else {"PYTHONPATH": src}
    env = dict(
        _BASE_ENV,
        **extra,
        HOME=home,
        VTCODE_HOME=str(Path(home) / ".vtcode"),
        OPENAI_API_KEY="bench",
        OPENAI_BASE_URL=f"http://127.0.0.1:{port}/v1",
    )
    started = time.perf_counter()
    args = launch.args if src is None else launch.compare_args
    proc = subprocess.Popen(
        [*VTCODE, "exec", "-c", "network.max_retries=0", *args, "hi"],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL if launch.stdin is None else subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if proc.stdin is not None and launch.stdin is not None:
        proc.stdin.write(launch.stdin)
        proc.stdin.close()
    thread.join(30)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc.kill()
    proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    server.close()
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return (arrived[0] - started, cpu) if arrived else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--compare-src", help="src/ of another checkout to measure alongside")
    parser.add_argument("--modes", default="plain", help="comma-separated: plain, stdin, json")
    parser.add_argument("--stdin", type=int, default=4096, metavar="BYTES", help="bytes piped in (stdin)")
    parser.add_argument("--args", default="", help="exec options for this tree, e.g. '--sandbox off'")
    parser.add_argument("--compare-args", default="", help="exec options for the --compare-src tree")
    options = parser.parse_args()
    _Compare.src = options.compare_src
    launch_list = launches(
        options.modes.split(","),
        tuple(options.args.split()),
        tuple(options.compare_args.split()),
        options.stdin,
    )
    runs = options.runs
    load_before = os.getloadavg()
    base = median_of(runs, [sys.executable, "-c", "pass"])
    version = median_of(runs, [*VTCODE, "--version"])
    help_ = median_of(runs, [*VTCODE, "--help"])
    figures = first_byte(max(10, runs // 2), launch_list, options.compare_src)
    load_after = os.getloadavg()
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after ({os.cpu_count()} CPUs)")
    print(f"python3 -c pass        {base * 1000:7.1f} ms  (baseline)")
    print(f"vtcode --version       {version * 1000:7.1f} ms  {version / base:5.2f}x  (target <= 3x)")
    print(f"vtcode --help          {help_ * 1000:7.1f} ms  {help_ / base:5.2f}x  (target <= 6x)")
    for name, ((fb, fb_cpu), other) in figures.items():
        print(f"exec -> first byte [{name}]")
        print(f"  this tree            {fb * 1000:7.1f} ms  {fb / base:5.2f}x  (target <= 150 ms)")
        print(f"  its CPU time         {fb_cpu * 1000:7.1f} ms")
        if other is not None:
            wall, cpu = other
            print(
                f"  --compare-src tree   {wall * 1000:7.1f} ms  {wall / base:5.2f}x  "
                f"(this tree: {fb / wall:.3f}x)"
            )
            print(f"  its CPU time         {cpu * 1000:7.1f} ms  (this tree: {fb_cpu / cpu:.3f}x)")


if __name__ == "__main__":
    main()
