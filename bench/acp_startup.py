"""`vtcode acp` start-up: launch -> `initialize` response, and prompt -> first streamed chunk.

Baseline, measured in the same run and interleaved with the ACP samples so machine load hits both:
`vtcode exec` launch -> its first request byte on a loopback socket. The ACP prompt runs against a
loopback Chat Completions server in this process (it answers every request with a short text).
Run: .venv/bin/python bench/acp_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import RecordedRequest, Reply, Step

_SCRIPT = Path(sys.executable).with_name("vtcode")
VTCODE = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "vtcode"]
# An installed vtcode has its .pyc files; an editable checkout under PYTHONDONTWRITEBYTECODE would not.
_BASE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _env(home: str, base_url: str) -> dict[str, str]:
    return dict(
        _BASE_ENV,
        HOME=home,
        VTCODE_HOME=str(Path(home) / ".vtcode"),
        OPENAI_API_KEY="bench",
        OPENAI_BASE_URL=base_url,
    )


def exec_first_request() -> float | None:
    """Seconds from spawning `vtcode exec` to its first request byte."""
    home, work = tempfile.mkdtemp(), tempfile.mkdtemp()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    arrived: list[float] = []

    def accept() -> None:
        conn, _ = server.accept()
        conn.recv(1)
        arrived.append(time.perf_counter())
        conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    env = _env(home, f"http://127.0.0.1:{server.getsockname()[1]}/v1")
    started = time.perf_counter()
    proc = subprocess.Popen(
        [*VTCODE, "exec", "-c", "network.max_retries=0", "hi"],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    thread.join(30)
    proc.kill()
    proc.wait()
    server.close()
    return arrived[0] - started if arrived else None


def _send(stdin: IO[str], request_id: int, method: str, params: dict[str, Any]) -> None:
    stdin.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}) + "\n")
    stdin.flush()


def _until(stdout: IO[str], wanted: Any) -> dict[str, Any]:
    while True:
        line = stdout.readline()
        if not line:
            raise RuntimeError("vtcode acp closed its output")
        message: dict[str, Any] = json.loads(line)
        if wanted(message):
            return message


def acp_once(base_url: str) -> tuple[float, float]:
    """(launch -> initialize response, prompt sent -> first agent_message_chunk) in seconds."""
    home, work = tempfile.mkdtemp(), tempfile.mkdtemp()
    started = time.perf_counter()
    proc = subprocess.Popen(
        [*VTCODE, "acp", "--provider", "openai", "--model", "gpt-4.1"],
        cwd=work,
        env=_env(home, base_url),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    try:
        _send(proc.stdin, 1, "initialize", {"protocolVersion": 1})
        _until(proc.stdout, lambda m: m.get("id") == 1)
        initialized = time.perf_counter() - started
        _send(proc.stdin, 2, "session/new", {"cwd": work, "mcpServers": []})
        session = _until(proc.stdout, lambda m: m.get("id") == 2)["result"]["sessionId"]
        prompted = time.perf_counter()
        _send(
            proc.stdin,
            3,
            "session/prompt",
            {"sessionId": session, "prompt": [{"type": "text", "text": "hi"}]},
        )
        _until(
            proc.stdout,
            lambda m: (
                m.get("method") == "session/update"
                and m["params"]["update"]["sessionUpdate"] == "agent_message_chunk"
            ),
        )
        first_chunk = time.perf_counter() - prompted
        _until(proc.stdout, lambda m: m.get("id") == 3)
    finally:
        proc.stdin.close()
        proc.wait(30)
    return initialized, first_chunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs

    def answer(_: RecordedRequest) -> Step:
        return Reply(text="hello from the loopback model")

    exec_samples: list[float] = []
    init_samples: list[float] = []
    chunk_samples: list[float] = []
    with OpenAIChatServer(responder=answer) as server:
        # The first round warms the page cache and the .pyc files; it is not counted.
        for round_ in range(runs + 1):
            sample = exec_first_request()
            initialized, first_chunk = acp_once(server.base_url)
            if round_ and sample is not None:
                exec_samples.append(sample)
                init_samples.append(initialized)
                chunk_samples.append(first_chunk)
    base = statistics.median(exec_samples)
    init = statistics.median(init_samples)
    chunk = statistics.median(chunk_samples)
    print(f"medians of {len(exec_samples)} runs (ratio to exec launch -> first request):")
    print(f"  exec launch -> first request     {base * 1000:7.1f} ms  (baseline)")
    print(f"  acp launch -> initialize reply   {init * 1000:7.1f} ms  {init / base:5.2f}x")
    print(f"  acp prompt -> first chunk        {chunk * 1000:7.1f} ms  {chunk / base:5.2f}x")


if __name__ == "__main__":
    main()
