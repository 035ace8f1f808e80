"""Spool throughput: a command writing 1 GiB to stdout, spooled by a command session, against the same
command redirected to a file by the shell, measured in the same run; plus vtcode's peak RSS.

The session side runs in a child Python process (the "vtcode" process: session manager, reader, spool),
so its peak RSS is its own and not the benchmark driver's.
Run: .venv/bin/python bench/exec_spool_bench.py [--gib 1] [--runs 3]
Targets (issue 5): throughput >= 0.7x the shell redirect, peak RSS <= 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINE = "2026-05-09T07:35:25Z INFO build step compiled module vtcode.exec.session in 0.004 s"

# One process writing log-like text in 1 MiB blocks: cheap enough that the spooling is what is measured
# (on a 2-CPU machine a `yes | head` pipeline competes with the reader for the cores).
_PRODUCER = f"""
import os, sys
left = int(sys.argv[1])
line = b"{LINE}\\n"
block = memoryview((line * (1048576 // len(line) + 1))[:1048576])
while left > 0:
    left -= os.write(1, block[: min(left, len(block))])
"""


def producer(size: int, pipeline: bool = False) -> str:
    """A shell command that writes exactly `size` bytes of log-like text to stdout."""
    if pipeline:
        return f"yes '{LINE}' | head -c {size}"
    return f"{sys.executable} -c '{_PRODUCER}' {size}"


def shell_redirect(size: int, workdir: Path, pipeline: bool) -> float:
    """Seconds for the shell to write the same stream into a file (the baseline)."""
    target = workdir / "shell.out"
    os.sync()  # start from a clean page cache, as the session run does
    started = time.perf_counter()
    subprocess.run(["/bin/sh", "-c", f"{producer(size, pipeline)} > {target}"], check=True)
    elapsed = time.perf_counter() - started
    assert target.stat().st_size == size
    target.unlink()
    return elapsed


def spooled(size: int, workdir: Path, pipeline: bool) -> tuple[float, float, float]:
    """Seconds and peak RSS (MB) of a child vtcode session spooling the stream."""
    os.sync()
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(size), str(workdir), str(int(pipeline))],
        check=True,
        capture_output=True,
        text=True,
    )
    report = json.loads(out.stdout)
    return report["seconds"], report["rss_mb"], report["cpu"]


async def _child(size: int, workdir: Path, pipeline: bool) -> dict[str, float]:
    from vtcode.exec.manager import ExecSettings, SessionManager
    from vtcode.tools.base import ToolContext
    from vtcode.tools.exec_command import ExecCommandTool
    from vtcode.tools.write_stdin import WriteStdinTool

    manager = SessionManager(
        workspace=workdir, env=dict(os.environ), settings=ExecSettings(spool_max_bytes=2 << 30)
    )
    ctx = ToolContext(workspace=workdir)
    started = time.perf_counter()
    result = json.loads(
        (
            await ExecCommandTool(manager).run({"cmd": producer(size, pipeline), "yield_time_ms": 250}, ctx)
        ).content
    )
    while not (result["is_exited"] and result["output_drained"]):
        args = {"session_id": result["session_id"], "action": "wait"}
        result = json.loads((await WriteStdinTool(manager).run(args, ctx)).content)
    elapsed = time.perf_counter() - started
    spool = workdir / ".vtcode" / "context" / "tool_outputs" / f"{result['session_id']}.log"
    if not result["spool_complete"] or spool.stat().st_size != size:
        raise SystemExit(f"spool incomplete: {result}")
    spool.unlink()
    await manager.aclose()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"seconds": elapsed, "rss_mb": usage.ru_maxrss / 1024, "cpu": usage.ru_utime + usage.ru_stime}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gib", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", nargs=3)
    args = parser.parse_args()
    if args.child:
        size, workdir, pipeline = int(args.child[0]), Path(args.child[1]), args.child[2] == "1"
        print(json.dumps(asyncio.run(_child(size, workdir, pipeline))))
        return
    size = int(args.gib * (1 << 30))
    mib = size / (1 << 20)
    print(f"stream: {mib:.0f} MiB of log-like text, {args.runs} runs each, medians")
    for pipeline, label in ((False, "one-process producer"), (True, "`yes | head -c` pipeline")):
        with tempfile.TemporaryDirectory() as tmp:
            workdir = Path(tmp)
            shell_redirect(size // 8, workdir, pipeline)  # warm the page cache and binaries
            shell_times, session_times, rss, cpu = [], [], [], []
            for _ in range(args.runs):
                shell_times.append(shell_redirect(size, workdir, pipeline))
                seconds, rss_mb, cpu_seconds = spooled(size, workdir, pipeline)
                session_times.append(seconds)
                rss.append(rss_mb)
                cpu.append(cpu_seconds)
        shell = statistics.median(shell_times)
        session = statistics.median(session_times)
        print(f"[{label}]")
        print(f"  shell redirect to a file:   {shell:6.2f} s  {mib / shell:8.0f} MiB/s")
        print(f"  command session + spool:    {session:6.2f} s  {mib / session:8.0f} MiB/s")
        print(f"  throughput ratio (session/shell): {shell / session:.2f}x   (target >= 0.70x)")
        print(f"  peak RSS of the session process: {max(rss):.1f} MB   (target <= 100 MB)")
        print(f"  CPU of the session process: {statistics.median(cpu):.2f} s (user+sys, incl. start-up)")


if __name__ == "__main__":
    main()
