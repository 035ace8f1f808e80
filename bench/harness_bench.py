"""Harness overhead of one model round trip with a history of 50, 500 and 5,000 messages.

One round trip is what `TurnRunner._request` does: build the `ModelRequest` from the conversation state
(`tuple(history)`, the system prompt, the workspace tool specs), encode it, POST it, stream a short reply
("ok") and decode it into a `Completed` — here through `OpenAIChatClient` against the loopback Chat
Completions server. The server runs in a subprocess, so `time.process_time()` around the round trip is
vtcode's own CPU (plus httpx2/asyncio on the client side), not the server's.

Baseline, measured in the same run: `json.dumps` of the same request body as an already built plain dict
(the unavoidable cost of putting that many bytes on the wire from Python). Also printed: the growth of
the per-request CPU between sizes (10x more messages; 10x is linear).

Target: <= 10 ms CPU per request at 500 messages; linear or better growth.
Run: .venv/bin/python bench/harness_bench.py [--quick] [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time

from loopback_process import ServerProcess

from vtcode.core.retry import RetryPolicy
from vtcode.prompts import profile_text, runtime_guidance
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    Reasoning,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.protocol.model import Completed, ModelRequest, SystemPrompt, ToolSpec
from vtcode.providers.http import Endpoint
from vtcode.providers.openai_chat import OpenAIChatClient
from vtcode.providers.openai_chat_request import build_chat_request
from vtcode.tools.registry import workspace_tools

SIZES = (50, 500, 5_000)
TARGET_MS_AT_500 = 10.0

# Runs in a child process: an OpenAIChatServer with a long script of short replies; prints its base URL
# and serves until stdin closes. Recorded requests (megabytes each at 5,000 messages) are dropped.
_SERVER = r"""
import sys, threading, time
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply
server = OpenAIChatServer([Reply(text="ok")] * int(sys.argv[1])).start()
print(server.base_url, flush=True)
def trim():
    while True:
        time.sleep(0.2)
        server.requests.clear()
threading.Thread(target=trim, daemon=True).start()
sys.stdin.read()
server.stop()
"""

_CODE = (
    "def handle_{n}(request: Request) -> Response:\n"
    '    """Serve one "{n}" request; see docs/api.md \u00a73."""\n'
    "    if not request.user.is_authenticated:\n"
    '        raise PermissionDenied(f"user {{request.user.id}} may not call {n}")\n'
    "    payload = json.loads(request.body or b'{{}}')\n"
    "    return Response({{'ok': True, 'items': [x.to_dict() for x in repo.find(**payload)]}})\n\n"
)
_PROSE = (
    "I looked at the module and the failing test. The handler validates the payload before the "
    "permission check, so an anonymous caller gets a 400 instead of a 403 \u2014 that is the bug. "
)


def _sized(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def realistic_history(count: int, seed: int = 7) -> list[Message]:
    """`count` messages shaped like an agent session: user asks, assistant reasons and calls tools,
    tools answer with 1-2 KB of code."""
    rng = random.Random(seed)
    out: list[Message] = []
    n = 0
    while len(out) < count:
        n += 1
        if n % 6 == 1:
            out.append(UserMessage(_sized(_PROSE, rng.randint(200, 1200))))
            continue
        calls = tuple(
            ToolCall(
                id=f"call_{n}_{k}",
                name=rng.choice(["read_file", "grep_files", "apply_patch"]),
                arguments=json.dumps(
                    {
                        "path": f"src/pkg/module_{n}.py",
                        "patch": _sized(_CODE.format(n=n), rng.randint(100, 900)),
                    }
                ),
            )
            for k in range(rng.randint(1, 2))
        )
        reasoning = (Reasoning(text=_sized(_PROSE, rng.randint(200, 600)), signature="sig" + "A" * 200),)
        out.append(
            AssistantMessage(
                content=_sized(_PROSE, rng.randint(50, 400)), reasoning=reasoning, tool_calls=calls
            )
        )
        for call in calls:
            content = _sized(_CODE.format(n=n), rng.randint(1000, 2000))
            out.append(ToolResultMessage(call_id=call.id, name=call.name, content=content))
    return out[:count]


async def round_trip(
    client: OpenAIChatClient, system: SystemPrompt, history: list[Message], tools: tuple[ToolSpec, ...]
) -> float:
    """Process CPU seconds of one request: build from state, encode, send, stream, decode."""
    started = time.process_time()
    request = ModelRequest(
        model="gpt-4.1",
        system=system,
        messages=tuple(history),
        tools=tools,
        max_output_tokens=4096,
        cache_key="session-bench",
    )
    completed = None
    async for event in client.stream(request):
        if isinstance(event, Completed):
            completed = event
    elapsed = time.process_time() - started
    assert completed is not None
    assert completed.message.content == "ok"
    return elapsed


def dumps_cpu(
    system: SystemPrompt, history: list[Message], tools: tuple[ToolSpec, ...], runs: int
) -> tuple[float, int]:
    """Median CPU seconds of json.dumps of the same body as a plain dict, and the body size."""
    request = ModelRequest(
        model="gpt-4.1",
        system=system,
        messages=tuple(history),
        tools=tools,
        max_output_tokens=4096,
        cache_key="session-bench",
    )
    plain = json.loads(json.dumps(build_chat_request(request, provider="openai")))
    samples = []
    body = b""
    for _ in range(runs + 1):
        started = time.process_time()
        body = json.dumps(plain, ensure_ascii=False, separators=(",", ":")).encode()
        samples.append(time.process_time() - started)
    return statistics.median(samples[1:]), len(body)


async def measure(runs: dict[int, int]) -> dict[int, tuple[float, float, float, int]]:
    system = SystemPrompt(
        f"{profile_text('default')}\n\n{runtime_guidance()}", appendix="# AGENTS.md\nBe terse."
    )
    tools = tuple(tool.spec for tool in workspace_tools())
    server = ServerProcess(_SERVER, str(sum(runs.values()) + 2 * len(runs) + 5))
    client = OpenAIChatClient(Endpoint("openai", server.base_url, retry=RetryPolicy(max_retries=0)))
    results: dict[int, tuple[float, float, float, int]] = {}
    try:
        for size, count in runs.items():
            history = realistic_history(size)
            await round_trip(client, system, history, tools)  # warm-up
            cpu: list[float] = []
            walls: list[float] = []
            for _ in range(count):
                wall0 = time.perf_counter()
                cpu.append(await round_trip(client, system, history, tools))
                walls.append(time.perf_counter() - wall0)
            base, size_bytes = dumps_cpu(system, history, tools, count)
            results[size] = (statistics.median(cpu), statistics.median(walls), base, size_bytes)
    finally:
        await client.aclose()
        server.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument(
        "--runs", type=int, default=None, help="runs at 50 and 500 messages (5,000 gets a fifth)"
    )
    args = parser.parse_args()
    runs = args.runs or (10 if args.quick else 40)
    plan = {50: runs, 500: runs, 5_000: max(3, runs // 5)}
    results = asyncio.run(measure(plan))
    print("one chat round trip, client process CPU per request (server in a subprocess), median")
    print(
        f"{'messages':>8} {'body KB':>8} {'json.dumps ms':>14} {'vtcode CPU ms':>14} {'ratio':>7}"
        f" {'us/message':>11} {'wall ms':>8}"
    )
    for size, (cpu, wall, base, body) in results.items():
        print(
            f"{size:>8,} {body / 1024:>8.0f} {base * 1000:>14.2f} {cpu * 1000:>14.2f} {cpu / base:>6.2f}x"
            f" {cpu / size * 1e6:>11.1f} {wall * 1000:>8.1f}"
        )
    c50, c500, c5000 = (results[s][0] for s in SIZES)
    print(f"growth 50 -> 500:    {c500 / c50:5.2f}x  (10x messages; <= 10x is linear or better)")
    print(f"growth 500 -> 5,000: {c5000 / c500:5.2f}x  (10x messages; <= 10x is linear or better)")
    verdict = "met" if c500 * 1000 <= TARGET_MS_AT_500 else "MISSED"
    print(f"target <= {TARGET_MS_AT_500:.0f} ms at 500 messages: {c500 * 1000:.2f} ms, {verdict}")


if __name__ == "__main__":
    main()
