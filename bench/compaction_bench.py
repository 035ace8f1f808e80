"""Compaction planning time and estimator throughput.

Planning (protocol groups, tail selection, retained user words, budgets) over synthetic sessions of
1,000 / 10,000 / 100,000 messages averaging ~200 estimated tokens (10,000 messages = ~2M tokens):
- warm: per-message estimates already cached, as in a live session (target: median <= 50 ms at 10,000);
- cold: a fresh estimator, so every message is BPE-counted first.
Baseline in the same run: one pass that reads every message's content length (the least any planner
that looks at each message does). Estimator throughput: BPE counting in MB/s against
`len(text.encode())` over the same text.
Run: .venv/bin/python bench/compaction_bench.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from vtcode.core.compaction.plan import CompactionSettings, plan_compaction
from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from vtcode.tokens.encoding import text_counter

WORDS = [
    "def",
    "return",
    "self",
    "value",
    "import",
    "test",
    "path",
    "error",
    "file",
    "line",
    "check",
    "build",
    "module",
]


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def session(messages: int, seed: int = 7) -> list[Message]:
    """A session of about `messages` messages: user turns, tool batches, results, replies."""
    rng = random.Random(seed)
    out: list[Message] = []
    call = 0
    while len(out) < messages:
        out.append(UserMessage(_text(rng, 30)))
        for _ in range(rng.randint(1, 4)):
            call += 1
            args = f'{{"path": "src/mod{call % 97}.py", "pattern": "{rng.choice(WORDS)}"}}'
            out.append(AssistantMessage(tool_calls=(ToolCall(f"c{call}", "read_file", args),)))
            out.append(ToolResultMessage(call_id=f"c{call}", name="read_file", content=_text(rng, 440)))
        out.append(AssistantMessage(content=_text(rng, 60)))
    return out[:messages]


def _content_lengths(history: list[Message]) -> int:
    return sum(len(message.content) for message in history)


def _cold_plan(history: list[Message], settings: CompactionSettings) -> object:
    return plan_compaction(history, MessageEstimator(text_counter()), settings)


def _byte_length(text: str) -> int:
    return len(text.encode())


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    count = text_counter()
    settings = CompactionSettings(capacity=200_000)
    print(f"{'messages':>9} {'tokens':>11} {'baseline':>9} {'warm':>9} {'warm/base':>9} {'cold':>9}")
    for size in (1_000, 10_000, 100_000):
        history = session(size)
        estimate = MessageEstimator(count)
        tokens = estimate.total(history)
        base = _median(partial(_content_lengths, history), args.repeat)
        warm = _median(partial(plan_compaction, history, estimate, settings), args.repeat)
        cold_repeat = 1 if size >= 100_000 else 3
        cold = _median(partial(_cold_plan, history, settings), cold_repeat)
        print(
            f"{size:>9,} {tokens:>11,} {base * 1e3:>7.2f}ms {warm * 1e3:>7.2f}ms "
            f"{warm / base:>8.1f}x {cold * 1e3:>7.0f}ms"
        )
    rng = random.Random(3)
    samples = {
        "prose": _text(rng, 200_000),
        "json": "".join(
            f'{{"path": "src/m{n}.py", "line": {n}, "text": "{_text(rng, 8)}"}},\n' for n in range(20_000)
        ),
    }
    for name, text in samples.items():
        size = len(text.encode())
        bpe = _median(partial(count, text), 3)
        plain = _median(partial(_byte_length, text), 3)
        print(
            f"estimator {name}: {size / bpe / 1e6:.1f} MB/s BPE vs {size / plain / 1e6:.0f} MB/s "
            f"len(text.encode()) ({bpe / plain:.0f}x slower); "
            f"BPE count = {count(text) / (size / 4):.2f}x the bytes/4 figure"
        )


if __name__ == "__main__":
    main()
