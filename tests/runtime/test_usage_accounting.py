"""Every model call of a session is accounted by source and model at the table's list prices.

Loopback servers report known usage (cache reads and writes on the Anthropic wire); the session's own
report (`/usage`), the stored `usage.json` and `vtcode usage --json` must equal a hand computation.
Table prices used by hand: gpt-4.1 $2 in / $8 out per million; claude-sonnet-4-5 $3 in, $15 out,
$0.30 cache read, $3.75 cache write per million.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.runtime.compaction_agent import GOOD_SUMMARY, Agent, budget_options, write_files
from tests.runtime.session_helpers import Reader, options
from tests.runtime.test_compaction_continuity import BUDGET, _turn
from tests.runtime.test_inline_native_compaction import PROMPTS, _drive
from vtcode.core.usage_ledger import subagent_source
from vtcode.protocol.events import ThreadCompacted
from vtcode.protocol.ops import Compact
from vtcode.protocol.usage import UsageReport
from vtcode.runtime.session import Session
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply, Step


def _cli_usage(vtcode: VtcodeRunner, home: Path, session_id: str) -> dict[str, object]:
    result = vtcode.run(
        "usage", "--session", session_id, "--json", env={"VTCODE_HOME": str(home / ".vtcode")}
    )
    assert result.code == 0, result.stderr
    parsed: dict[str, object] = json.loads(result.stdout)
    return parsed


def _rows(report: UsageReport) -> dict[tuple[str, str], tuple[int, int, int, int, int]]:
    return {
        (r.source, r.model): (
            r.requests,
            r.usage.input_tokens,
            r.usage.output_tokens,
            r.usage.cached_input_tokens,
            r.usage.cache_creation_input_tokens,
        )
        for r in report.rows
    }


async def test_summary_requests_of_a_compaction_are_counted_under_compaction(
    tmp_path: Path, vtcode: VtcodeRunner
) -> None:
    ws = tmp_path / "ws"
    agent = Agent(
        write_files(ws, 12, 150),
        summarize=lambda body: Reply(text=GOOD_SUMMARY, input_tokens=5_000, output_tokens=400),
    )
    with OpenAIChatServer(responder=agent) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=BUDGET))
        reader = Reader(session)
        for n in range(3):
            await _turn(session, reader, f"task {n}: read the next files")
        await session.submit(Compact())
        await reader.wait_for(ThreadCompacted)
        await _turn(session, reader, "go on")
        await reader.close()
    main, summaries = len(agent.bodies("main")), len(agent.bodies("summary"))
    assert summaries >= 1
    report = session.usage()
    # Hand computation: main replies report 10 in / 5 out; summaries 5,000 in / 400 out.
    assert _rows(report) == {
        ("main", "gpt-4.1"): (main, 10 * main, 5 * main, 0, 0),
        ("compaction", "gpt-4.1"): (summaries, 5_000 * summaries, 400 * summaries, 0, 0),
    }
    expected = (main * (10 * 2 + 5 * 8) + summaries * (5_000 * 2 + 400 * 8)) / 1e6
    assert report.cost_usd == pytest.approx(expected)
    (row,) = [r for r in report.rows if r.source == "compaction"]
    assert row.cost_usd == pytest.approx(summaries * (5_000 * 2 + 400 * 8) / 1e6)
    stored = _cli_usage(vtcode, tmp_path, session.id)
    assert stored["cost_usd"] == pytest.approx(expected)
    assert stored["requests"] == main + summaries
    assert {(r["source"], r["requests"]) for r in stored["rows"]} == {  # type: ignore[attr-defined]
        ("main", main),
        ("compaction", summaries),
    }


async def test_anthropic_cache_tokens_and_the_compaction_edit_are_priced_by_the_table(
    tmp_path: Path, vtcode: VtcodeRunner
) -> None:
    turn = {"input_tokens": 20_000, "output_tokens": 300, "cached_input_tokens": 12_000}
    script: list[Step] = [
        Reply(text="ok 1", **turn, cache_write_tokens=6_000),  # type: ignore[arg-type]
        Reply(text="ok 2", **turn, cache_write_tokens=1_000),  # type: ignore[arg-type]
        Reply(text="ok 3", **turn),  # type: ignore[arg-type]
        Reply(
            compaction="provider summary",
            input_tokens=60_000,
            cached_input_tokens=40_000,
            cache_write_tokens=2_000,
            output_tokens=900,
        ),
        Reply(text="ok after", input_tokens=8_000, output_tokens=50, cached_input_tokens=0),
    ]
    reader, _, session = await _drive(tmp_path, script, [*PROMPTS, Compact(), "go on"])
    assert reader.of(ThreadCompacted)
    report = session.usage()
    assert _rows(report) == {
        ("main", "claude-sonnet-4-5"): (4, 68_000, 950, 36_000, 7_000),
        ("compaction", "claude-sonnet-4-5"): (1, 60_000, 900, 40_000, 2_000),
    }

    def cost(uncached: int, read: int, written: int, out: int) -> float:
        return (uncached * 3 + read * 0.30 + written * 3.75 + out * 15) / 1e6

    main = (
        cost(2_000, 12_000, 6_000, 300)
        + cost(7_000, 12_000, 1_000, 300)
        + cost(8_000, 12_000, 0, 300)
        + cost(8_000, 0, 0, 50)
    )
    compaction = cost(18_000, 40_000, 2_000, 900)
    assert report.cost_usd == pytest.approx(main + compaction)
    by_source = {r.source: r.cost_usd for r in report.rows}
    assert by_source == {"main": pytest.approx(main), "compaction": pytest.approx(compaction)}
    stored = _cli_usage(vtcode, tmp_path, session.id)
    assert stored["cost_usd"] == pytest.approx(main + compaction)
    assert stored["prices_taken"]


async def test_a_child_sessions_calls_go_into_the_parents_account_under_its_source(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script: list[Step] = [
        Reply(text="parent answer", input_tokens=1_000, output_tokens=10),
        Reply(text="child answer", input_tokens=3_000, output_tokens=30),
    ]
    with OpenAIChatServer(script) as server:
        parent = await Session.open(options(ws, tmp_path, server))
        reader = Reader(parent)
        await _turn(parent, reader, "plan it")
        child_options = dataclasses.replace(
            options(ws, tmp_path, server, headless=True),
            usage_parent=parent.usage_tracking,
            usage_source=subagent_source("a1"),
            ephemeral=True,
        )
        child = await Session.open(child_options)
        child_reader = Reader(child)
        await _turn(child, child_reader, "do the part")
        await child_reader.close()
        await reader.close()
    assert _rows(parent.usage()) == {
        ("main", "gpt-4.1"): (1, 1_000, 10, 0, 0),
        ("subagent:a1", "gpt-4.1"): (1, 3_000, 30, 0, 0),
    }
    assert parent.usage().cost_usd == pytest.approx((4_000 * 2 + 40 * 8) / 1e6)
    stored = json.loads((tmp_path / ".vtcode" / "sessions" / parent.id / "usage.json").read_text())
    assert {row["source"] for row in stored["rows"]} == {"main", "subagent:a1"}
