"""The TUI in a real pseudo-terminal: launch-to-prompt time, and keystroke echo under a flood of output.

1. Launch to an interactive prompt: `vtcode` started in a PTY until its status line says "ready" (the
   session is open and the composer takes input), as a ratio to `python -c "import textual"` measured in
   the same run.
2. Responsiveness: while a command streams 100,000 lines into the transcript, single keys are typed into
   the composer; the time from writing a key to the PTY until the app echoes it (median, p95) is compared
   with the same measurement on an idle screen. The vtcode process's resident memory before and after
   the flood shows that the transcript keeps a bounded tail.

Run: .venv/bin/python bench/tui_bench.py [--runs N] [--lines N]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

import psutil
from loopback_process import ServerProcess

_SERVER = r"""
import json, sys
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, ScriptToolCall
lines = int(sys.argv[1])
flood = (
    "python3 -c 'import sys,time\nfor i in range(%d):\n print(\"line\", i, \"x\" * 60)\n"
    " if i %% 2000 == 0: sys.stdout.flush(); time.sleep(0.05)'" % lines
)
call = ScriptToolCall("exec_command", json.dumps({"cmd": flood, "yield_time_ms": 120000}), id="c1")
script = [Reply(tool_calls=(call,)), Reply(text="flood done")]
server = OpenAIChatServer(script).start()
print(server.base_url, flush=True)
sys.stdin.read()
server.stop()
"""

# Keys typed to measure echo: letters that neither the flood nor the rest of the screen contains.
_KEYS = "QWRTYUPKJHGFDZVBM"
_BASE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


class Pty:
    """A child process on a pseudo-terminal of a given size, its output collected by a thread."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, cols: int = 100, rows: int = 30):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True
        )
        os.close(slave)
        self.master = master
        self.output = bytearray()
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            with self.changed:
                if not data:
                    self.changed.notify_all()
                    return
                self.output += data
                self.changed.notify_all()

    def wait_for(self, marker: bytes, start: int = 0, timeout: float = 60) -> float:
        """Seconds from now until `marker` appears in the output after offset `start`."""
        began = time.perf_counter()
        with self.changed:
            while self.output.find(marker, start) < 0:
                left = timeout - (time.perf_counter() - began)
                if left <= 0 or not self.reader.is_alive():
                    raise RuntimeError(f"{marker!r} not seen; output tail: {bytes(self.output[-300:])!r}")
                self.changed.wait(left)
        return time.perf_counter() - began

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        try:
            self.write(b"\x03\x03")
            self.proc.wait(15)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def _env(base_url: str, home: Path) -> dict[str, str]:
    env = dict(_BASE_ENV)
    env.update(
        {
            "OPENAI_API_KEY": "bench",
            "OPENAI_BASE_URL": base_url,
            "HOME": str(home),
            "VTCODE_HOME": str(home / ".vtcode"),
            "TERM": "xterm-256color",
            "OLLAMA_HOST": "http://127.0.0.1:9",
        }
    )
    return env


def _vtcode() -> list[str]:
    return [
        sys.executable,
        "-m",
        "vtcode",
        "--provider",
        "openai",
        "--model",
        "gpt-4.1",
        "--approval",
        "full-auto",
    ]


def launch_seconds(env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """From exec to the first frame with the composer, and to the status line saying "ready"."""
    term = Pty(_vtcode(), env, cwd)
    try:
        term.wait_for(b"sk vtcode")  # the first letter may carry the cursor
        frame = time.perf_counter() - term.started
        term.wait_for(b" ready ")
        return frame, time.perf_counter() - term.started
    finally:
        term.close()


def import_textual_seconds() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import textual"], env=_BASE_ENV, check=True)
    return time.perf_counter() - started


def echo_latencies(term: Pty, count: int, *, busy: bool) -> list[float]:
    """Type `count` marker keys one by one; seconds until each is echoed (typed text is then cleared)."""
    found: list[float] = []
    for index in range(count):
        key = _KEYS[index % len(_KEYS)].encode()
        start = len(term.output)
        sent = time.perf_counter()
        term.write(key)
        term.wait_for(key, start)
        found.append(time.perf_counter() - sent)
        time.sleep(0.05 if busy else 0.02)
    return found


def _summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(values) * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms  (n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--keys", type=int, default=40)
    args = parser.parse_args()
    server = ServerProcess(_SERVER, str(args.lines))
    try:
        with tempfile.TemporaryDirectory() as scratch:
            root = Path(scratch)
            (root / "ws").mkdir()
            env = _env(server.base_url, root)
            import_textual_seconds()
            launch_seconds(env, root / "ws")  # warm caches
            baseline = statistics.median(import_textual_seconds() for _ in range(args.runs))
            launches = [launch_seconds(env, root / "ws") for _ in range(args.runs)]
            frame = statistics.median(f for f, _ in launches)
            launch = statistics.median(r for _, r in launches)
            print(f"python -c 'import textual'      {baseline * 1000:7.1f} ms (baseline)")
            print(f"vtcode launch to first frame    {frame * 1000:7.1f} ms  ratio {frame / baseline:5.2f}x")
            print(f"vtcode launch to ready prompt   {launch * 1000:7.1f} ms  ratio {launch / baseline:5.2f}x")

            term = Pty(_vtcode(), env, root / "ws")
            try:
                term.wait_for(b" ready ")
                process = psutil.Process(term.proc.pid)
                idle = echo_latencies(term, args.keys // 2, busy=False)
                for _ in range(args.keys // 2):
                    term.write(b"\x7f")
                rss_before = process.memory_info().rss
                start = len(term.output)
                term.write(b"flood\r")
                term.wait_for(b"running", start)
                busy: list[float] = []
                peak = rss_before
                while term.output.find(b"exit 0", start) < 0 and len(busy) < args.keys * 10:
                    busy += echo_latencies(term, 1, busy=True)
                    peak = max(peak, process.memory_info().rss)
                term.wait_for(b"flood done", start, timeout=300)
                rss_after = process.memory_info().rss
            finally:
                term.close()
            print(f"keystroke echo, idle            {_summary(idle)}")
            print(f"keystroke echo, {args.lines:,} lines  {_summary(busy)}")
            print(
                f"echo latency ratio (flood / idle, medians) "
                f"{statistics.median(busy) / statistics.median(idle):5.2f}x"
            )
            mib = 1024 * 1024
            print(
                f"vtcode RSS: before {rss_before / mib:.1f} MiB, peak {peak / mib:.1f} MiB, "
                f"after {rss_after / mib:.1f} MiB"
            )
            print(
                json.dumps(
                    {
                        "first_frame_ratio": round(frame / baseline, 2),
                        "ready_ratio": round(launch / baseline, 2),
                    }
                )
            )
    finally:
        server.close()


if __name__ == "__main__":
    main()
