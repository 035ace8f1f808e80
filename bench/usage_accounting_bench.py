"""Usage accounting's CPU cost per model round trip: `harness_bench.py` on a baseline tree vs this one.

The accounting (a metered client around every call, the cost at list prices, the ledger, the budget
check before each request) runs inside every round trip `bench/harness_bench.py` times. This runs that
benchmark alternately on a baseline source tree without accounting (e.g. a worktree of main made with
`git worktree add --detach /tmp/base main`) and on this tree, with the same Python, in the same run, and
prints the median vtcode CPU per round trip of each and their ratio at 50, 500 and 5,000 messages.

Target: <= 1.02x CPU per round trip. The machine's noise is shown as the spread of the pairs.
Run: .venv/bin/python bench/usage_accounting_bench.py --baseline-src /tmp/base/src [--pairs N] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
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
    print("target: <= 1.02x")


if __name__ == "__main__":
    main()
