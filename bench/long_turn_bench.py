"""One `vtcode exec` turn of 5,000 tool round trips at `context.max_context_tokens=30000`.

The loopback model (`vtcode.testing.long_turn.LongTurnModel`) reads files, runs commands and patches, one
call per request, and checks every request (the prompt verbatim, within budget, one summary, the newest
5 results verbatim). Figures:
- wall time, compactions, summary requests and the tokens they sent, peak RSS of vtcode;
- vtcode's CPU per round trip around round trip 100 against around round trip 4,900 (target <= 1.5x),
  read from /proc while the turn runs;
- tokens sent per round trip (main and summary requests, by the server's count), against the baseline
  measured in the same run: the same turn at 160,000 with compaction off, for as many round trips as
  fit (its first `--baseline-round-trips`), compared over the same round trips; and the 5,000-round-trip
  average without compaction extrapolated from the baseline's per-round-trip growth.
Run: .venv/bin/python bench/long_turn_bench.py [--round-trips 5000] [--baseline-round-trips 450]
     [--budget 16000] [--usage-scale 1.8]   (another budget; a provider counting 1.8x our estimate)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from vtcode.testing.long_turn import LongTurnModel, write_workspace
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import RecordedRequest, Step
from vtcode.testing.wire import cli_args, cli_env
from vtcode.tokens.encoding import text_counter

PROMPT = "Work through the modules one round trip at a time and keep the counters patched."
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Sampler:
    """Wraps the model: vtcode's CPU seconds (from /proc) as each main request arrives."""

    model: LongTurnModel
    pid: int = 0
    cpu: list[float] = field(default_factory=list)
    # Summary tokens sent before each main request.
    summary_at: list[int] = field(default_factory=list)
    peak_rss_kb: int = 0

    def __call__(self, request: RecordedRequest) -> Step:
        before = len(self.model.mains)
        step = self.model(request)
        if len(self.model.mains) > before and self.pid:
            self.summary_at.append(self.model.summary_tokens_sent)
            self.cpu.append(_cpu_seconds(self.pid))
            if len(self.cpu) % 50 == 0:
                self.peak_rss_kb = max(self.peak_rss_kb, _peak_rss_kb(self.pid))
        return step


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def _peak_rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class Run:
    """One turn's figures."""

    sampler: Sampler
    wall: float
    code: int
    compactions: list[dict[str, object]]


def run_turn(round_trips: int, budget: int, *, compaction: bool = True, scale: float = 1.0) -> Run:
    """`vtcode exec` for one turn of `round_trips` against the long-turn model."""
    with tempfile.TemporaryDirectory(prefix="vtcode-long-turn-") as tmp:
        root = Path(tmp)
        ws = root / "ws"
        write_workspace(ws)
        home = root / "home"
        home.mkdir()
        model = LongTurnModel(
            prompt=PROMPT, round_trips=round_trips, counter=text_counter(), budget=budget, usage_scale=scale
        )
        sampler = Sampler(model)
        args = ["-m", "vtcode", "exec", "--json", "--approval", "full-auto", *cli_args("chat")]
        args += ["-c", f"context.max_context_tokens={budget}", "--max-turns", str(round_trips + 5)]
        if not compaction:
            args += ["-c", "agent.harness.auto_compaction_enabled=false"]
        with OpenAIChatServer(responder=sampler) as server:
            env = {**os.environ, "HOME": str(home), "VTCODE_HOME": str(home / ".vtcode")}
            env.update(cli_env("chat", server))
            started = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, *args, PROMPT],
                cwd=ws,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            sampler.pid = proc.pid
            stdout, stderr = proc.communicate()
            wall = time.perf_counter() - started
        if proc.returncode != 0:
            print(f"  vtcode exited {proc.returncode}: {stderr.strip()[-300:]}")
        events = [json.loads(line) for line in stdout.splitlines() if line.strip()]
        compactions = [e for e in events if e["type"] == "thread.compacted"]
        return Run(sampler=sampler, wall=wall, code=proc.returncode, compactions=compactions)


def cpu_per_round_trip(cpu: list[float], around: int, width: int = 100) -> float:
    """vtcode's CPU seconds per round trip over `width` round trips centred on `around`."""
    start, end = max(0, around - width // 2), min(len(cpu) - 1, around + width // 2)
    return (cpu[end] - cpu[start]) / max(1, end - start)


def main() -> None:
    """Run the long turn and its baseline; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round-trips", type=int, default=5_000)
    parser.add_argument("--baseline-round-trips", type=int, default=450)
    parser.add_argument("--budget", type=int, default=30_000)
    parser.add_argument("--usage-scale", type=float, default=1.0)
    options = parser.parse_args()
    n = options.round_trips
    budget = options.budget

    print(f"long turn: {n:,} round trips at max_context_tokens={budget} (usage x{options.usage_scale}) ...")
    turn = run_turn(n, budget, scale=options.usage_scale)
    model = turn.sampler.model
    mains = model.mains
    print(
        f"  exit {turn.code}, wall {turn.wall:.1f} s ({turn.wall / n * 1000:.1f} ms per round trip), "
        f"violations {len(model.violations)}"
    )
    print(
        f"  compactions {len(turn.compactions)} (one per {n / max(1, len(turn.compactions)):.1f} round "
        f"trips), summary requests {model.summary_requests}, "
        f"summary tokens sent {model.summary_tokens_sent:,}"
    )
    print(f"  peak RSS of vtcode {turn.sampler.peak_rss_kb / 1024:.1f} MiB")
    print(
        f"  max request {max(m.reported for m in mains):,} tokens by the server's count (budget {budget:,})"
    )
    early, late = 100, min(n - 100, 4_900)
    if len(turn.sampler.cpu) > late + 50:
        cpu_early = cpu_per_round_trip(turn.sampler.cpu, early)
        cpu_late = cpu_per_round_trip(turn.sampler.cpu, late)
        print(
            f"  vtcode CPU per round trip: {cpu_early * 1000:.2f} ms at {early}, {cpu_late * 1000:.2f} ms "
            f"at {late}: ratio {cpu_late / max(cpu_early, 1e-9):.2f}x (target <= 1.5x)"
        )
    sent = sum(m.counted for m in mains) + model.summary_tokens_sent
    print(f"  tokens sent per round trip over the turn: {sent / n:,.0f}")

    b = options.baseline_round_trips
    print(f"baseline: the same turn at 160,000 with compaction off, {b} round trips ...")
    base = run_turn(b, 160_000, compaction=False)
    base_mains = base.sampler.model.mains[:b]
    base_per = sum(m.counted for m in base_mains) / b
    same = sum(m.counted for m in mains[:b]) + turn.sampler.summary_at[min(b, len(mains) - 1)]
    ours_per = same / b
    print(f"  exit {base.code}, tokens sent per round trip over round trips 1-{b}: {base_per:,.0f}")
    print(
        f"  {budget:,} turn over the same round trips: {ours_per:,.0f} per round trip "
        f"(ratio {ours_per / base_per:.2f}x of no compaction)"
    )
    growth = (base_mains[-1].counted - base_mains[0].counted) / max(1, b - 1)
    extrapolated = base_mains[0].counted + growth * (n - 1) / 2
    print(
        f"  without compaction {n:,} round trips would average ~{extrapolated:,.0f} tokens per request "
        f"(+{growth:,.0f} per round trip, no window holds it): the compacted turn sends "
        f"{sent / n / extrapolated:.2f}x of that"
    )


if __name__ == "__main__":
    main()
