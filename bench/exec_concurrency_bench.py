"""CPU cost of 16 concurrent command sessions that print continuously, per MB of output.

Each session runs `yes <log line> | head -c SIZE` (writes of a few KiB, like a chatty build). vtcode's
CPU (user+sys of the process holding the sessions, measured with getrusage) is divided by the output
volume. Baseline in the same run: a bare selectors loop in Python that reads the same 16 pipes and
writes 16 files, i.e. the least any Python spooler can do. Each side runs in its own child process.
Run: .venv/bin/python bench/exec_concurrency_bench.py [--sessions 16] [--mib 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import selectors
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINE = "2026-05-09T07:35:25Z INFO test tests::exec::session_spool ... ok"


def command(size: int) -> str:
    """One chatty producer of exactly `size` bytes."""
    return f"yes '{LINE}' | head -c {size}"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _vtcode(sessions: int, size: int, workdir: Path, progress: bool) -> dict[str, float]:
    from vtcode.exec.manager import ExecSettings, SessionManager
    from vtcode.exec.progress import ExecProgress
    from vtcode.tools.base import ToolContext
    from vtcode.tools.exec_command import ExecCommandTool
    from vtcode.tools.write_stdin import WriteStdinTool

    manager = SessionManager(workdir, dict(os.environ), ExecSettings(max_sessions=sessions))
    start, wait = ExecCommandTool(manager), WriteStdinTool(manager)
    reports: list[int] = []

    def sink(report: ExecProgress) -> None:
        reports.append(len(report.text))

    async def one() -> int:
        call_ctx = ToolContext(workspace=workdir, progress=sink if progress else None)
        result = json.loads((await start.run({"cmd": command(size), "yield_time_ms": 250}, call_ctx)).content)
        while not (result["is_exited"] and result["output_drained"]):
            args = {"session_id": result["session_id"], "action": "wait"}
            result = json.loads((await wait.run(args, call_ctx)).content)
        total: int = result["total_output_bytes"]
        return total

    cpu, wall = _cpu(), time.perf_counter()
    totals = await asyncio.gather(*(one() for _ in range(sessions)))
    cpu, wall = _cpu() - cpu, time.perf_counter() - wall
    await manager.aclose()
    if totals != [size] * sessions:
        raise SystemExit(f"lost output: {totals}")
    return {"cpu": cpu, "wall": wall, "reports": len(reports)}


def _baseline(sessions: int, size: int, workdir: Path) -> dict[str, float]:
    cpu, wall = _cpu(), time.perf_counter()
    selector = selectors.DefaultSelector()
    procs = []
    for i in range(sessions):
        proc = subprocess.Popen(["/bin/sh", "-c", command(size)], stdout=subprocess.PIPE)
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        os.set_blocking(fd, False)
        out = os.open(workdir / f"base-{i}.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        selector.register(fd, selectors.EVENT_READ, out)
        procs.append(proc)
    open_fds = sessions
    while open_fds:
        for key, _ in selector.select():
            data = os.read(key.fd, 256 * 1024)
            if data:
                os.write(key.data, data)
                continue
            selector.unregister(key.fd)
            os.close(key.data)
            open_fds -= 1
    for proc in procs:
        proc.wait()
    return {"cpu": _cpu() - cpu, "wall": time.perf_counter() - wall, "reports": 0}


def _run_child(kind: str, sessions: int, size: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [sys.executable, __file__, "--child", kind, str(sessions), str(size), tmp],
            check=True,
            capture_output=True,
            text=True,
        )
    report: dict[str, float] = json.loads(out.stdout)
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=16)
    parser.add_argument("--mib", type=int, default=32, help="output of each session")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", nargs=4)
    args = parser.parse_args()
    if args.child:
        kind, sessions, size, workdir = (
            args.child[0],
            int(args.child[1]),
            int(args.child[2]),
            Path(args.child[3]),
        )
        if kind == "baseline":
            print(json.dumps(_baseline(sessions, size, workdir)))
        else:
            print(json.dumps(asyncio.run(_vtcode(sessions, size, workdir, progress=kind == "progress"))))
        return
    size = args.mib << 20
    mb = args.sessions * size / 1e6
    print(f"{args.sessions} sessions x {args.mib} MiB each ({mb:.0f} MB), {args.runs} runs, medians")
    results = {}
    for kind in ("baseline", "sessions", "progress"):
        runs = [_run_child(kind, args.sessions, size) for _ in range(args.runs)]
        results[kind] = {k: statistics.median(r[k] for r in runs) for k in ("cpu", "wall")}
    labels = {
        "baseline": "bare selectors loop -> files",
        "sessions": "vtcode sessions + spools",
        "progress": "  ... with live progress sinks",
    }
    for kind, label in labels.items():
        cpu, wall = results[kind]["cpu"], results[kind]["wall"]
        print(f"{label:<32} CPU {cpu:6.2f} s  = {cpu * 1000 / mb:6.3f} ms/MB   wall {wall:6.2f} s")
    for kind in ("sessions", "progress"):
        print(f"CPU per MB ratio {kind}/baseline: {results[kind]['cpu'] / results['baseline']['cpu']:.2f}x")


if __name__ == "__main__":
    main()
