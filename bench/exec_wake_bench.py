"""Wake latency: from a command's exit to the return of the `wait` that waits for it, over 100 runs.

The command's last process records `time.time()` and exits at once (`os._exit`); the latency is the
wall clock when `write_stdin {action: wait}` returns minus that stamp. Baseline in the same run: the
same command under a plain blocking `subprocess.Popen.wait()` (waitpid), the floor for "notice the exit".
Run: .venv/bin/python bench/exec_wake_bench.py [--runs 100]
Targets (issue 5): median <= 5 ms, p99 <= 20 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from vtcode.exec.manager import ExecSettings, SessionManager
from vtcode.tools.base import ToolContext
from vtcode.tools.exec_command import ExecCommandTool
from vtcode.tools.write_stdin import WriteStdinTool


def command(stamp: Path) -> str:
    """Sleep past the start call's 250 ms yield (so the wait blocks), stamp the time, exit at once."""
    code = f"import os, time; open({str(stamp)!r}, 'w').write(repr(time.time())); os._exit(0)"
    return f'sleep 0.4; exec {sys.executable} -S -c "{code}"'


def baseline(stamp: Path) -> float:
    """Exit-to-return latency of a blocking waitpid on the same command."""
    proc = subprocess.Popen(["/bin/sh", "-c", command(stamp)])
    proc.wait()
    return time.time() - float(stamp.read_text())


async def sessions(runs: int, workdir: Path) -> list[float]:
    """Exit-to-return latencies of `wait` on command sessions."""
    manager = SessionManager(workdir, dict(os.environ), ExecSettings())
    ctx = ToolContext(workspace=workdir)
    start, wait = ExecCommandTool(manager), WriteStdinTool(manager)
    latencies = []
    for i in range(runs):
        stamp = workdir / f"stamp-{i}"
        started = json.loads((await start.run({"cmd": command(stamp), "yield_time_ms": 0}, ctx)).content)
        if started["is_exited"]:
            raise SystemExit("the command ended before the wait began")
        args = {"session_id": started["session_id"], "action": "wait", "wait_timeout_seconds": 30}
        result = json.loads((await wait.run(args, ctx)).content)
        returned = time.time()
        if not (result["is_exited"] and result["output_drained"]):
            raise SystemExit(f"wait returned before the end: {result}")
        latencies.append(returned - float(stamp.read_text()))
    await manager.aclose()
    return latencies


def _summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{name:<34} median {statistics.median(values) * 1000:6.2f} ms   p99 {p99 * 1000:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        floor = [baseline(workdir / f"base-{i}") for i in range(args.runs)]
        waits = asyncio.run(sessions(args.runs, workdir))
    print(f"{args.runs} runs each")
    print(_summary("baseline: Popen.wait() (waitpid)", floor))
    print(_summary("write_stdin action wait", waits))
    print(
        f"ratio of medians (wait/baseline): {statistics.median(waits) / statistics.median(floor):.2f}x   "
        "(targets: median <= 5 ms, p99 <= 20 ms)"
    )


if __name__ == "__main__":
    main()
