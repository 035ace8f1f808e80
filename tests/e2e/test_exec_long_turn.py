"""One `vtcode exec` turn of hundreds of tool round trips never dies of its own context.

The loopback model (`vtcode.testing.long_turn.LongTurnModel`) reads files, runs commands and patches three
files, one call per request, and checks every request it receives: the prompt verbatim, the request
within the budget by the server's own count, and after the first compaction the summary exactly once and
the newest 5 tool results verbatim. The full 5,000-round-trip turn is `bench/long_turn_bench.py` (about
40 ms a round trip here, too long for the suite); these runs make the same assertions over 450
(today's code failed the 30k turn after 384 round trips).
"""

from __future__ import annotations

import itertools
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.core.compaction.fallback import READ_LINE_PREFIX, sections
from vtcode.testing.long_turn import PATCHED, READ_FILES, LongTurnModel, write_workspace
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.wire import cli_args, cli_env
from vtcode.tokens.encoding import text_counter

PROMPT = "Work through the modules one round trip at a time and keep the counters patched."
ROUND_TRIPS = 450
# 450 round trips are CPU work; with parallel test workers on two cores one run may take minutes.
pytestmark = pytest.mark.timeout(600)


@dataclass
class LongTurn:
    """What one run left: the model's checks and figures, vtcode's compaction events, the workspace."""

    model: LongTurnModel
    compactions: list[dict[str, Any]]
    workspace: Path


def _run(
    vtcode: VtcodeRunner,
    tmp_path: Path,
    budget: int,
    *,
    scale: float = 1.0,
    round_trips: int = ROUND_TRIPS,
    summaries: bool = True,
) -> LongTurn:
    ws = tmp_path / "ws"
    write_workspace(ws)
    model = LongTurnModel(
        prompt=PROMPT,
        round_trips=round_trips,
        counter=text_counter(),
        budget=budget,
        usage_scale=scale,
        recall_at_end=True,
        summaries=summaries,
    )
    args = ["exec", "--json", "--approval", "full-auto", *cli_args("chat")]
    args += ["-c", f"context.max_context_tokens={budget}", "--max-turns", str(round_trips + 5), PROMPT]
    with OpenAIChatServer(responder=model) as server:
        proc = subprocess.run(
            vtcode.command(*args),
            cwd=ws,
            env=vtcode.env(cli_env("chat", server)),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr[-2_000:]
    assert "Traceback" not in proc.stderr
    compactions = [e for e in events(proc.stdout) if e["type"] == "thread.compacted"]
    return LongTurn(model=model, compactions=compactions, workspace=ws)


def _assert_kept_going(run: LongTurn, budget: int, round_trips: int = ROUND_TRIPS) -> None:
    """The invariants every long turn keeps, checked on what the server received and vtcode reported."""
    model = run.model
    assert model.violations == []
    assert len(model.mains) == round_trips + 2  # every round trip, the recall, the answer
    assert max(m.reported for m in model.mains) <= budget
    assert max(m.counted for m in model.mains) <= budget
    compactions = run.compactions
    assert compactions
    assert len(compactions) <= round_trips / 10
    for earlier, later in itertools.pairwise(compactions):
        grown = later["before_tokens"] - earlier["after_tokens"]
        assert later["reason"] == "hard" or grown >= earlier["tail_target_tokens"] // 4, (earlier, later)
    # Every patch landed: the three files were changed, in place, as often as they were patched.
    for path, count in zip(PATCHED, model.patches, strict=True):
        assert (run.workspace / path).read_text().endswith(f"counter = {count}\n")


def test_a_450_round_trip_turn_at_a_30k_budget_exits_0_with_every_request_in_bounds(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    run = _run(vtcode, tmp_path, 30_000)
    _assert_kept_going(run, 30_000)
    assert all(0.9 <= c["calibration_ratio"] <= 1.1 for c in run.compactions)


def test_a_provider_counting_1_8x_our_estimate_never_gets_a_request_over_its_budget(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    run = _run(vtcode, tmp_path, 30_000, scale=1.8)
    _assert_kept_going(run, 30_000)
    # Planned in the provider's tokens: the ratio was learned from its usage figures.
    assert all(1.6 <= c["calibration_ratio"] <= 2.0 for c in run.compactions)


def test_after_20_compactions_an_early_fact_is_recalled_and_the_fallback_lists_only_patched_files(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    # A 16k budget, and a model whose summaries are always empty: vtcode's deterministic summary.
    run = _run(vtcode, tmp_path, 16_000, summaries=False)
    _assert_kept_going(run, 16_000)
    assert len(run.compactions) >= 20
    assert {c["mode"] for c in run.compactions} == {"fallback"}
    # The file read in round trip 10 was summarized away long ago; the archive still has it.
    assert run.model.recall_result is not None
    assert "the secret port is 48151" in run.model.recall_result
    summary = run.model.last_summary
    assert summary is not None
    body = sections(summary)
    assert body["Goal"] == [PROMPT]
    assert "Earlier summary" not in summary
    assert summary.count("## Goal") == 1
    touched = [line[2:] for line in body["Files touched"] if line.startswith("- ")]
    assert sorted(touched) == sorted(PATCHED)
    # All 200 modules and the notes were read, none changed: the reads line names 20, counts the rest.
    (reads,) = [line for line in body["Files touched"] if line.startswith(READ_LINE_PREFIX)]
    assert reads.count("src/mod_") == 20
    assert reads.endswith(f", and {READ_FILES + 1 - 20} more")
