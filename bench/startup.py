"""Start-up cost of `vtcode --version`, `vtcode --help` and `vtcode exec` to first byte on the wire.

Figures are ratios to `python3 -c pass` measured in the same run (these machines are noisy).
With `--compare-src DIR` (the `src/` of another checkout, e.g. `git archive` of an older commit) the
first-byte runs alternate between this tree and that one, so both see the same machine load.
Run: .venv/bin/python bench/startup.py [--runs N] [--compare-src DIR]
`--stdin BYTES` pipes that much text into every `exec` (then closes the pipe); `--args` adds exec options
for this tree and `--compare-args` for the other one (an older tree may not know a new option).
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


class Launch:
    """How `exec` is started: its extra options per tree and the bytes piped into its stdin."""

    args: tuple[str, ...] = ()
    compare_args: tuple[str, ...] = ()
    stdin: bytes | None = None


def first_byte(runs: int, compare_src: str | None = None) -> tuple[Sample, Sample | None]:
    """Median wall and CPU time from spawning `vtcode exec` to its first request byte on a loopback server.

    The second pair is the same for the tree at `compare_src`, measured in alternation. CPU time (user +
    system of the child until it is killed at the first byte) varies far less than wall time on a
    machine other jobs share.
    """
    trees: list[str | None] = [None] if compare_src is None else [None, compare_src]
    samples: dict[str | None, list[Sample]] = {tree: [] for tree in trees}
    for _ in range(runs + 1):
        for tree in trees:
            sample = _first_byte_once(tree)
            if sample is not None:
                samples[tree].append(sample)

    def medians(tree: str | None) -> Sample:
        kept = samples[tree][1:]
        return statistics.median(w for w, _ in kept), statistics.median(c for _, c in kept)

    return medians(None), medians(compare_src) if compare_src is not None else None


def _first_byte_once(src: str | None) -> Sample | None:
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
    args = Launch.args if src is None else Launch.compare_args
    proc = subprocess.Popen(
        [*VTCODE, "exec", "-c", "network.max_retries=0", *args, "hi"],
        cwd=work,
        env=env,
        stdin=subprocess.DEVNULL if Launch.stdin is None else subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if proc.stdin is not None and Launch.stdin is not None:
        proc.stdin.write(Launch.stdin)
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
    parser.add_argument("--stdin", type=int, metavar="BYTES", help="pipe this many bytes into exec")
    parser.add_argument("--args", default="", help="exec options for this tree, e.g. '--output-format json'")
    parser.add_argument("--compare-args", default="", help="exec options for the --compare-src tree")
    options = parser.parse_args()
    Launch.args = tuple(options.args.split())
    Launch.compare_args = tuple(options.compare_args.split())
    if options.stdin is not None:
        Launch.stdin = (b"diff --git a/x b/x\n" * (options.stdin // 19 + 1))[: options.stdin]
    runs = options.runs
    base = median_of(runs, [sys.executable, "-c", "pass"])
    version = median_of(runs, [*VTCODE, "--version"])
    help_ = median_of(runs, [*VTCODE, "--help"])
    (fb, fb_cpu), other = first_byte(max(10, runs // 2), options.compare_src)
    print(f"python3 -c pass        {base * 1000:7.1f} ms  (baseline)")
    print(f"vtcode --version       {version * 1000:7.1f} ms  {version / base:5.2f}x  (target <= 3x)")
    print(f"vtcode --help          {help_ * 1000:7.1f} ms  {help_ / base:5.2f}x  (target <= 6x)")
    print(f"exec -> first byte     {fb * 1000:7.1f} ms  {fb / base:5.2f}x  (target <= 150 ms)")
    print(f"  its CPU time         {fb_cpu * 1000:7.1f} ms")
    if other is not None:
        wall, cpu = other
        print(
            f"  --compare-src tree   {wall * 1000:7.1f} ms  {wall / base:5.2f}x  (this tree: {fb / wall:.2f})"
        )
        print(f"  its CPU time         {cpu * 1000:7.1f} ms  (this tree: {fb_cpu / cpu:.2f})")


if __name__ == "__main__":
    main()
