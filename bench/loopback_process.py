"""A loopback wire server run in a child process, so the benchmark's process CPU is vtcode's alone."""

from __future__ import annotations

import subprocess
import sys


class ServerProcess:
    """Runs `source` (a script that prints its base URL, then serves until stdin closes) in a child."""

    def __init__(self, source: str, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", source, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.base_url = self.proc.stdout.readline().strip()
        if not self.base_url.startswith("http://127.0.0.1:"):
            self.close()
            raise RuntimeError(f"server did not start: {self.base_url!r}")

    def close(self) -> None:
        """Close stdin (the child's signal to stop) and reap it."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
