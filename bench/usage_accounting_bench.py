"""Usage accounting's CPU cost per model round trip: `harness_bench.py` on a baseline tree vs this one.

The accounting (a metered client around every call, the cost at list prices, the ledger, the budget
check before each request) runs inside every round trip `bench/harness_bench.py` times. This runs that
benchmark alternately on a baseline source tree without accounting (e.g. a worktree of main made with
`git worktree add --detach /tmp/base main`) and on this tree, with the same Python, in the same run, and
prints the median vtcode CPU per round trip of each and their ratio at 50, 500 and 5,000 messages.

Target: <= 1.02x CPU per round trip. The machine's noise is shown as the spread of the pairs. A loaded
machine's noise can be larger than the effect, so the per-call work is also timed directly in this
process (a metered stream over a client that answers at once with 40 deltas, vs that client alone; the
ledger, the price lookup and the budget check included) and shown as a share of the baseline round trip.
Run: .venv/bin/python bench/usage_accounting_bench.py --baseline-src /tmp/base/src [--pairs N] [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
THIS_SRC = HERE.parent / "src"
ROW = re.compile(r"^\s*([\d,]+)\s+\d+\s+\d+\s+[\d.]+\s+([\d.]+)\s")


def run_once(src: Path, runs: int, store: str | None) -> dict[int, float]:
    """vtcode CPU ms per round trip by history size, from one harness_bench run on `src`."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, str(HERE / "harness_bench.py"), "--runs", str(runs)]
    if store:
        command += ["--dir", store]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    rows: dict[int, float] = {}
    for line in out.splitlines():
        match = ROW.match(line)
        if match:
            rows[int(match.group(1).replace(",", ""))] = float(match.group(2))
    return rows


def per_call_overhead_us(calls: int = 20_000) -> float:
    """Process CPU µs the accounting adds to one model call (median of 5 batches)."""
    from vtcode.core.usage_ledger import UsageLedger
    from vtcode.protocol.events import Notice
    from vtcode.protocol.messages import AssistantMessage, Usage
    from vtcode.protocol.model import Completed, ModelRequest, StreamEvent, SystemPrompt, TextDelta
    from vtcode.providers.price_table import price_book
    from vtcode.runtime.budget import Budget
    from vtcode.runtime.metered_client import MeteredClient

    delta = TextDelta("word ")
    done = Completed(AssistantMessage(content="ok"), Usage(input_tokens=5_000, output_tokens=50), "end_turn")

    class Instant:
        provider = "openai"

        async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
            # A reply streamed as 40 deltas: the metered stream passes each one on.
            for _ in range(40):
                yield delta
            yield done

        async def aclose(self) -> None:
            pass

    def notify(notice: Notice) -> None:
        pass

    request = ModelRequest(model="gpt-4.1", system=SystemPrompt("s"), messages=(), tools=())
    ledger = UsageLedger(price_book())
    ledger.subscribe(Budget(max_usd=1e9, max_tokens=None, notify=notify).observe)
    plain, metered = Instant(), MeteredClient(Instant(), ledger, "main")

    async def batch(client: Instant | MeteredClient) -> float:
        started = time.process_time()
        for _ in range(calls):
            async for _event in client.stream(request):
                pass
        return time.process_time() - started

    async def measure() -> float:
        extra = [await batch(metered) - await batch(plain) for _ in range(5)]
        return statistics.median(extra) / calls * 1e6

    return asyncio.run(measure())


def main() -> None:
    """Alternate baseline and current runs; print medians and ratios."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline-src", type=Path, required=True, help="the baseline tree's src/ folder")
    parser.add_argument("--pairs", type=int, default=5, help="baseline/current pairs (alternating)")
    parser.add_argument("--runs", type=int, default=20, help="round trips per size per harness run")
    parser.add_argument("--dir", default="/dev/shm", help="store directory (default tmpfs: less noise)")
    args = parser.parse_args()
    base: dict[int, list[float]] = {}
    current: dict[int, list[float]] = {}
    for pair in range(args.pairs):
        # Alternate which goes first, so a drift of the machine's load hits both alike.
        order = [(args.baseline_src, base), (THIS_SRC, current)]
        for src, into in order if pair % 2 == 0 else reversed(order):
            for size, ms in run_once(src, args.runs, args.dir).items():
                into.setdefault(size, []).append(ms)
    print("vtcode CPU ms per round trip, median of each run's median; baseline = tree without accounting")
    print(f"{'messages':>8} {'baseline':>9} {'current':>9} {'ratio':>6}  pair ratios (noise)")
    for size in sorted(base):
        b, c = statistics.median(base[size]), statistics.median(current[size])
        pairs = " ".join(f"{y / x:.3f}" for x, y in zip(base[size], current[size], strict=True))
        print(f"{size:>8,} {b:>9.3f} {c:>9.3f} {c / b:>6.3f}  {pairs}")
    overhead = per_call_overhead_us()
    at_50 = statistics.median(base[50]) * 1000
    print(
        f"accounting work per model call, timed in process: {overhead:.1f} us CPU = "
        f"{overhead / at_50:.2%} of the baseline round trip at 50 messages ({at_50:.0f} us)"
    )
    print("target: <= 1.02x")


if __name__ == "__main__":
    main()
