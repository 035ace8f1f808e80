"""Streaming parse throughput of the three model adapters, and the CPU cost of building a big request body.

Part 1 (stream): each adapter (`OpenAIChatClient`, `OpenAIResponsesClient`, `AnthropicClient`) streams one
answer of N text chunks (default 100,000 chunks of 4 characters) from its loopback server. The server runs
in a subprocess so it does not compete with the client for the GIL. Baseline, measured in the same run
against the same server process and the same response: the raw bytes of that response read with plain
`httpx2.AsyncClient.stream(...).aiter_bytes()`, no parsing. Figures:

- chunks/s: N divided by the wall time from the first response byte to the end of the stream (the time
  the server spends rendering its frames before the first byte is left out of both sides);
- client CPU per chunk: `time.process_time()` of this process for the whole request, divided by N.
The ratios (adapter / raw) show what SSE parsing and event decoding cost on top of the transport.

Part 2 (request): process CPU to build and encode the body of a `ModelRequest` holding 500 realistic
messages (user text, assistant text with reasoning and tool calls, 1-2 KB tool results) with each pure
request builder. Baseline: `json.dumps` of the same body as an already built plain dict (so the ratio shows
what building from our message types costs compared to just serialising the finished payload).

Run: .venv/bin/python bench/provider_stream_bench.py [--quick] [--chunks N] [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import httpx2
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
from vtcode.protocol.model import Completed, ModelRequest, StreamEvent, SystemPrompt, TextDelta
from vtcode.providers.anthropic import AnthropicClient, messages_path
from vtcode.providers.anthropic_request import build_request, encode_request
from vtcode.providers.http import Endpoint
from vtcode.providers.openai_chat import CHAT_COMPLETIONS_PATH, OpenAIChatClient
from vtcode.providers.openai_chat_request import build_chat_request, encode_chat_request
from vtcode.providers.openai_responses import RESPONSES_PATH, OpenAIResponsesClient
from vtcode.providers.openai_responses_request import build_responses_body, encode_responses_body
from vtcode.tools.registry import workspace_tools

WIRES = ("chat", "responses", "anthropic")
CHUNK_SIZE = 4

# Runs in a child process: a loopback server with `count` copies of one long reply; prints its base URL,
# serves until stdin closes. Recorded requests are dropped as they come so memory stays flat.
_SERVER = r"""
import sys, threading, time
from vtcode.testing.script import Reply
from vtcode.testing.wire import server_for
wire, chunks, size, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
unit = 'The "quick" brown fox\\jumps over the lazy dog: caf\u00e9 na\u00efve <tag>\n'
text = (unit * (chunks * size // len(unit) + 1))[: chunks * size]
server = server_for(wire, [Reply(text=text, chunk_size=size)] * count).start()
print(server.base_url, flush=True)
def trim():
    while True:
        time.sleep(0.2)
        server.requests.clear()
threading.Thread(target=trim, daemon=True).start()
sys.stdin.read()
server.stop()
"""


def make_client(wire: str, base_url: str) -> Any:
    """The adapter for `wire` pointed at `base_url`, retries off."""
    no_retry = RetryPolicy(max_retries=0)
    if wire == "anthropic":
        headers = {"x-api-key": "bench", "anthropic-version": "2023-06-01"}
        return AnthropicClient(Endpoint("anthropic", base_url, headers=headers, retry=no_retry))
    if wire == "responses":
        return OpenAIResponsesClient(Endpoint("openai", base_url, retry=no_retry))
    return OpenAIChatClient(Endpoint("openai", base_url, retry=no_retry))


def raw_target(wire: str, base_url: str, request: ModelRequest) -> tuple[str, bytes]:
    """URL and body the adapter for `wire` would POST."""
    endpoint = Endpoint("bench", base_url)
    if wire == "anthropic":
        return endpoint.url(messages_path(base_url)), encode_request(request)
    if wire == "responses":
        return endpoint.url(RESPONSES_PATH), encode_responses_body(request)
    return endpoint.url(CHAT_COMPLETIONS_PATH), encode_chat_request(request, provider="openai")


async def raw_once(client: httpx2.AsyncClient, url: str, body: bytes) -> tuple[float, float, int]:
    """(wall seconds from first byte to end, client CPU seconds, bytes) for one unparsed read."""
    cpu0 = time.process_time()
    first: float | None = None
    size = 0
    headers = {"content-type": "application/json", "accept": "text/event-stream"}
    async with client.stream("POST", url, content=body, headers=headers) as response:
        async for data in response.aiter_bytes():
            if first is None:
                first = time.perf_counter()
            size += len(data)
    end = time.perf_counter()
    assert first is not None
    return end - first, time.process_time() - cpu0, size


async def parsed_once(client: Any, request: ModelRequest, chunks: int) -> tuple[float, float]:
    """(wall seconds from first event to `Completed`, client CPU seconds) for one adapter stream."""
    cpu0 = time.process_time()
    first: float | None = None
    deltas = 0
    completed = False
    event: StreamEvent
    async for event in client.stream(request):
        if first is None:
            first = time.perf_counter()
        if isinstance(event, TextDelta):
            deltas += 1
        elif isinstance(event, Completed):
            completed = True
    end = time.perf_counter()
    assert first is not None, "no event arrived"
    assert completed, "stream did not complete"
    assert deltas == chunks, f"expected {chunks} text deltas, got {deltas}"
    return end - first, time.process_time() - cpu0


async def stream_part(chunks: int, runs: int) -> None:
    request = ModelRequest(
        model="bench-model",
        system=SystemPrompt("You are a benchmark."),
        messages=(UserMessage("Write a long answer."),),
    )
    print(
        f"streaming {chunks:,} text chunks of {CHUNK_SIZE} chars; median of {runs} runs;"
        " server in a subprocess"
    )
    print(
        f"{'wire':<10} {'raw chunks/s':>13} {'parsed chunks/s':>16} {'rate ratio':>10}"
        f" {'raw CPU us/chk':>15} {'parsed CPU us/chk':>18} {'CPU ratio':>9} {'MB':>6}"
    )
    for wire in WIRES:
        server = ServerProcess(_SERVER, wire, str(chunks), str(CHUNK_SIZE), str(2 * runs + 2))
        raw_http = httpx2.AsyncClient(timeout=httpx2.Timeout(60.0))
        adapter = make_client(wire, server.base_url)
        try:
            url, body = raw_target(wire, server.base_url, request)
            await raw_once(raw_http, url, body)  # warm-up (connection code paths, server imports)
            await parsed_once(adapter, request, chunks)
            raw_wall: list[float] = []
            raw_cpu: list[float] = []
            parsed_wall: list[float] = []
            parsed_cpu: list[float] = []
            size = 0
            for _ in range(runs):
                wall, cpu, size = await raw_once(raw_http, url, body)
                raw_wall.append(wall)
                raw_cpu.append(cpu)
                wall, cpu = await parsed_once(adapter, request, chunks)
                parsed_wall.append(wall)
                parsed_cpu.append(cpu)
        finally:
            await raw_http.aclose()
            await adapter.aclose()
            server.close()
        raw_rate = chunks / statistics.median(raw_wall)
        parsed_rate = chunks / statistics.median(parsed_wall)
        raw_us = statistics.median(raw_cpu) / chunks * 1e6
        parsed_us = statistics.median(parsed_cpu) / chunks * 1e6
        print(
            f"{wire:<10} {raw_rate:>13,.0f} {parsed_rate:>16,.0f} {parsed_rate / raw_rate:>9.2f}x"
            f" {raw_us:>15.2f} {parsed_us:>18.2f} {parsed_us / raw_us:>8.1f}x {size / 1e6:>6.1f}"
        )


# -- part 2: request bodies -------------------------------------------------------------------------

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


def _sized(unit: str, size: int, n: int) -> str:
    text = unit.replace("{n}", str(n)) if "{n}" in unit else unit
    return (text * (size // len(text) + 1))[:size]


def realistic_history(count: int, seed: int = 7) -> list[Message]:
    """`count` messages shaped like an agent session: user asks, assistant reasons and calls tools,
    tools answer with 1-2 KB of code, the assistant sometimes answers in prose."""
    rng = random.Random(seed)
    out: list[Message] = []
    n = 0
    while len(out) < count:
        n += 1
        if n % 6 == 1:
            out.append(UserMessage(_sized(_PROSE, rng.randint(200, 1200), n)))
            continue
        calls = tuple(
            ToolCall(
                id=f"call_{n}_{k}",
                name=rng.choice(["read_file", "grep_files", "apply_patch"]),
                arguments=json.dumps(
                    {
                        "path": f"src/pkg/module_{n}.py",
                        "patch": _sized(_CODE.format(n=n), rng.randint(100, 900), n),
                    }
                ),
                item_id=f"fc_{n}_{k}",
            )
            for k in range(rng.randint(1, 2))
        )
        reasoning = (
            Reasoning(
                text=_sized(_PROSE, rng.randint(200, 600), n),
                signature="sig" + "A" * 200,
                item_id=f"rs_{n}",
                encrypted_content="gAAAA" + "B" * 600,
            ),
        )
        out.append(
            AssistantMessage(
                content=_sized(_PROSE, rng.randint(50, 400), n), reasoning=reasoning, tool_calls=calls
            )
        )
        for call in calls:
            out.append(
                ToolResultMessage(
                    call_id=call.id,
                    name=call.name,
                    content=_sized(_CODE.format(n=n), rng.randint(1000, 2000), n),
                    is_error=rng.random() < 0.05,
                )
            )
    return out[:count]


def _dumps(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def cpu_median(fn: Callable[[], object], runs: int) -> float:
    """Median process CPU seconds of `fn()`."""
    fn()
    samples = []
    for _ in range(runs):
        started = time.process_time()
        fn()
        samples.append(time.process_time() - started)
    return statistics.median(samples)


def request_part(messages: int, runs: int) -> None:
    history = realistic_history(messages)
    request = ModelRequest(
        model="bench-model",
        system=SystemPrompt(
            f"{profile_text('default')}\n\n{runtime_guidance()}", appendix="# AGENTS.md\nBe terse."
        ),
        messages=tuple(history),
        tools=tuple(tool.spec for tool in workspace_tools()),
        max_output_tokens=4096,
        cache_key="session-bench",
    )
    builders: dict[str, tuple[Callable[[], bytes], Callable[[], dict[str, Any]]]] = {
        "chat": (
            lambda: encode_chat_request(request, provider="openai"),
            lambda: build_chat_request(request, provider="openai"),
        ),
        "responses": (lambda: encode_responses_body(request), lambda: build_responses_body(request)),
        "anthropic": (lambda: encode_request(request), lambda: build_request(request)),
    }
    print()
    print(f"request body for {messages} messages; process CPU, median of {runs} runs")
    print(
        f"{'wire':<10} {'body KB':>8} {'json.dumps ms':>14} {'build+encode ms':>16} {'ratio':>7}"
        f" {'of which build ms':>18}"
    )
    for wire, (encode, build) in builders.items():
        plain = json.loads(encode())  # the finished payload as plain dicts, lists and strings
        baseline = cpu_median(functools.partial(_dumps, plain), runs)
        ours = cpu_median(encode, runs)
        build_only = cpu_median(build, runs)
        size = len(encode())
        print(
            f"{wire:<10} {size / 1024:>8.0f} {baseline * 1000:>14.2f} {ours * 1000:>16.2f}"
            f" {ours / baseline:>6.2f}x {build_only * 1000:>18.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="10,000 chunks, fewer runs")
    parser.add_argument("--chunks", type=int, default=None)
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--messages", type=int, default=500)
    args = parser.parse_args()
    chunks = args.chunks or (10_000 if args.quick else 100_000)
    runs = args.runs or (2 if args.quick else 3)
    asyncio.run(stream_part(chunks, runs))
    request_part(args.messages, 5 if args.quick else 30)


if __name__ == "__main__":
    main()
