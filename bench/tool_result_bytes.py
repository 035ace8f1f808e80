"""Request bytes a command call adds to every later request: 10 `echo N` calls on the Chat wire.

`vtcode exec` runs against a loopback Chat Completions server that scripts ten `exec_command` calls
(tool-call ids of 15 characters), then an answer. Each recorded request body is re-serialised as compact
JSON; the figure per round trip is (request 11 - request 2) / 9. The figures from before compact tool
results (511-523 B per round trip) are printed next to them.
Run: .venv/bin/python bench/tool_result_bytes.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, ScriptToolCall

_SCRIPT = Path(sys.executable).with_name("vtcode")
VTCODE = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "vtcode"]
CALLS = 10
# Measured on this machine before tool results were compacted: the range per round trip, and
# this script's own figures at commit 8ea9b74 (request 11, and all 11 requests together).
BEFORE_PER_ROUND_TRIP = (511, 523)
BEFORE_REQUEST_11 = 15694
BEFORE_TOTAL = 143844


def call_id(n: int) -> str:
    """A 15-character tool-call id, as the peers' servers hand out."""
    return f"call_{n:010d}"


def script() -> list[Reply]:
    """Ten `echo N` command calls, then a final answer."""
    calls = [
        Reply(tool_calls=(ScriptToolCall("exec_command", json.dumps({"cmd": f"echo {n}"}), id=call_id(n)),))
        for n in range(1, CALLS + 1)
    ]
    return [*calls, Reply(text="done")]


def compact_size(body: Any) -> int:
    """Bytes of a request body re-serialised as compact JSON."""
    return len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


def request_sizes() -> list[int]:
    """Compact sizes of the requests of one scripted session."""
    home = tempfile.mkdtemp()
    work = tempfile.mkdtemp()
    with OpenAIChatServer(script()) as server:
        env = dict(
            os.environ,
            HOME=home,
            VTCODE_HOME=str(Path(home) / ".vtcode"),
            OPENAI_API_KEY="bench",
            OPENAI_BASE_URL=server.base_url,
        )
        argv = [*VTCODE, "exec", "--json", "--approval", "full-auto", "--provider", "openai"]
        done = subprocess.run(
            [*argv, "--model", "gpt-4.1", "run the ten commands"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"vtcode exec failed ({done.returncode}): {done.stderr}")
        return [compact_size(r.json()) for r in server.requests]


def _versus(now: int, before: int) -> str:
    return f"(before: {before} B, ratio {now / before:.2f})"


def main() -> None:
    """Print bytes per round trip and the total after ten round trips."""
    sizes = request_sizes()
    if len(sizes) != CALLS + 1:
        raise SystemExit(f"expected {CALLS + 1} requests, got {len(sizes)}")
    per_trip = (sizes[CALLS] - sizes[1]) / (CALLS - 1)
    low, high = BEFORE_PER_ROUND_TRIP
    print(f"request 1 (no tool results)   {sizes[0]:7d} B")
    last, total = sizes[CALLS], sum(sizes)
    print(f"request 11 (10 results)       {last:7d} B  {_versus(last, BEFORE_REQUEST_11)}")
    print(f"total of 11 requests          {total:7d} B  {_versus(total, BEFORE_TOTAL)}")
    print(
        f"added per round trip          {per_trip:7.1f} B  "
        f"(before: {low}-{high} B, ratio {per_trip / low:.2f}-{per_trip / high:.2f})"
    )


if __name__ == "__main__":
    main()
