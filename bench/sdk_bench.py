"""The SDK's start-up: `Session.open` + `run` -> first request byte, in-process, against `vtcode exec`.

Measured in the same run, interleaved so machine load hits every side alike; each sample listens on a
fresh loopback socket and takes the time its first byte arrives:
- `exec`: spawning `vtcode exec "hi"` (the way programs drive vtcode today: a child per query);
- `sdk cold`: spawning `python -c "import vtcode.sdk; Session.open + run"` (a fresh program's first query);
- `sdk warm`: `Session.open` + `run` in this process, vtcode already imported (every later query of a
  program that embeds the SDK);
- `sdk subprocess`: the same with `Options(transport="subprocess")`: a `vtcode acp` child per session,
  spoken to over stdio (the price of isolation, against `sdk warm` and `exec`);
- `sdk subprocess cold`: a fresh program's first subprocess session (it also imports the ACP library
  itself, before it starts the child);
and `import vtcode.sdk` against `python -c pass` (the budget of the issue: at most 3x).
Wall times move with the machine's load; the CPU (user+sys) of the processes a sample starts does not
as much, so it is printed beside them: the `vtcode exec` child until its first byte, the `vtcode acp`
child of `sdk subprocess` from spawn to exit (open, the turn, close), the program of the cold sides
(not the `vtcode acp` child of `sdk subprocess cold`: killed with its program, nobody reaps it here).
Run: .venv/bin/python bench/sdk_bench.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

_SCRIPT = Path(sys.executable).with_name("vtcode")
VTCODE = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "vtcode"]
# An installed vtcode has its .pyc files; an editable checkout under PYTHONDONTWRITEBYTECODE would not.
_BASE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
_NO_RETRY = "network.max_retries=0"

_COLD = """
import asyncio, sys
import vtcode.sdk as vt
async def main():
    options = vt.Options(
        workspace=sys.argv[1], provider="openai", model="gpt-4.1", config=[sys.argv[2]], transport=sys.argv[3]
    )
    async with await vt.Session.open(options) as session:
        await session.run("hi")
asyncio.run(main())
"""
# CPU seconds (user+sys) of the child processes each sample started, by side.
_CPU: dict[str, list[float]] = {}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class FirstByte:
    """A loopback socket that records when the first byte of the first connection arrives."""

    def __init__(self) -> None:
        self._server = socket.socket()
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(1)
        self.arrived: list[float] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        """The URL to point a provider at."""
        return f"http://127.0.0.1:{self._server.getsockname()[1]}/v1"

    def _accept(self) -> None:
        conn, _ = self._server.accept()
        conn.recv(1)
        self.arrived.append(time.perf_counter())
        conn.close()

    def wait(self) -> float | None:
        """The arrival time, or None after 30 s."""
        self._thread.join(30)
        self._server.close()
        return self.arrived[0] if self.arrived else None


def _env(home: str, base_url: str) -> dict[str, str]:
    return dict(
        _BASE_ENV,
        HOME=home,
        VTCODE_HOME=str(Path(home) / ".vtcode"),
        OPENAI_API_KEY="bench",
        OPENAI_BASE_URL=base_url,
    )


def _child(argv: list[str], cwd: str) -> float | None:
    home = tempfile.mkdtemp()
    listener = FirstByte()
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=_env(home, listener.base_url),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    arrived = listener.wait()
    proc.kill()
    proc.wait()
    return None if arrived is None else arrived - started


def exec_sample() -> float | None:
    """Seconds from spawning `vtcode exec` to its first request byte."""
    work = tempfile.mkdtemp()
    return _child([*VTCODE, "exec", "-c", _NO_RETRY, "hi"], work)


def cold_sample(transport: str = "in-process") -> float | None:
    """Seconds from spawning a Python program that opens an SDK session to its first request byte."""
    work = tempfile.mkdtemp()
    return _child([sys.executable, "-c", _COLD, work, _NO_RETRY, transport], work)


async def _warm(home: str, transport: str = "in-process") -> float | None:
    import vtcode.sdk as vt

    listener = FirstByte()
    env = {"HOME": home, "VTCODE_HOME": str(Path(home) / ".vtcode"), "OPENAI_API_KEY": "bench"}
    options = vt.Options(
        workspace=tempfile.mkdtemp(),
        provider="openai",
        model="gpt-4.1",
        base_url=listener.base_url,
        env=env,
        config=[_NO_RETRY],
        transport="subprocess" if transport == "subprocess" else "in-process",
    )
    started = time.perf_counter()
    async with await vt.Session.open(options) as session:
        await session.run("hi")
    arrived = await asyncio.to_thread(listener.wait)
    return None if arrived is None else arrived - started


def warm_sample() -> float | None:
    """Seconds from `Session.open` in this (already importing) process to the first request byte."""
    return asyncio.run(_warm(tempfile.mkdtemp()))


def subprocess_sample() -> float | None:
    """Seconds from `Session.open` with the subprocess transport to the child's first request byte."""
    return asyncio.run(_warm(tempfile.mkdtemp(), "subprocess"))


def _import_sample(code: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=_BASE_ENV, check=True)
    return time.perf_counter() - started


def main() -> None:
    """Print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    warm_sample()  # imports vtcode and fills caches, as a program's first query did
    sides: dict[str, Callable[[], float | None]] = {
        "exec": exec_sample,
        "sdk cold": cold_sample,
        "sdk warm": warm_sample,
        "sdk subprocess": subprocess_sample,
        "sdk subprocess cold": lambda: cold_sample("subprocess"),
        "python -c pass": lambda: _import_sample("pass"),
        "import vtcode.sdk": lambda: _import_sample("import vtcode.sdk"),
    }
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.runs):
        for name, sample in sides.items():
            cpu = _children_cpu()
            value = sample()
            _CPU.setdefault(name, []).append(_children_cpu() - cpu)
            if value is not None:
                samples[name].append(value)
    medians = {name: statistics.median(values) for name, values in samples.items() if values}
    for name, value in medians.items():
        cpu = statistics.median(_CPU[name]) * 1000
        spent = f", children {cpu:7.1f} ms CPU" if name not in ("sdk warm",) else ""
        print(f"{name:>19}: {value * 1000:8.1f} ms{spent} (median of {len(samples[name])})")
    base = medians["exec"]
    print(f"first request byte, sdk cold / exec: {medians['sdk cold'] / base:.2f}x")
    print(f"first request byte, sdk warm / exec: {medians['sdk warm'] / base:.3f}x")
    print(f"first request byte, sdk subprocess / exec: {medians['sdk subprocess'] / base:.2f}x")
    child = medians["sdk subprocess"]
    print(f"first request byte, sdk subprocess / sdk warm: {child / medians['sdk warm']:.1f}x")
    print(f"first request byte, sdk subprocess cold / exec: {medians['sdk subprocess cold'] / base:.2f}x")
    acp_cpu, exec_cpu = (statistics.median(_CPU[name]) for name in ("sdk subprocess", "exec"))
    print(f"child CPU, vtcode acp (open, turn, close) / exec (to first byte): {acp_cpu / exec_cpu:.2f}x")
    imported = medians["import vtcode.sdk"] / medians["python -c pass"]
    print(f"import vtcode.sdk / python -c pass:  {imported:.2f}x")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
