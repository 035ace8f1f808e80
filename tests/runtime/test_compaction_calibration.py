"""A live session plans compaction in the provider's tokens and retries a compaction that would not gain.

Loopback Chat server; `vtcode.testing.long_turn.LongTurnModel` reports usage as its own count of each
request times a scale (a provider whose tokenizer counts more than ours).
"""

from __future__ import annotations

from pathlib import Path

from tests.runtime.compaction_agent import budget_options, wait_turn_end
from tests.runtime.session_helpers import Reader
from vtcode.core.compaction.thresholds import thresholds
from vtcode.protocol.events import ThreadCompacted, TurnCompleted, TurnFailed
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.long_turn import LongTurnModel, write_workspace
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.tokens.encoding import text_counter

GPT41_WINDOW = 1_047_576


async def _turn(session: Session, reader: Reader, text: str) -> None:
    ended = len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed))
    await session.submit(UserInput(text))
    await wait_turn_end(reader, ended)


async def test_the_status_and_compactions_show_the_ratio_of_reported_to_estimated_tokens(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    write_workspace(ws)
    prompt = "read the modules"
    model = LongTurnModel(
        prompt=prompt, round_trips=90, counter=text_counter(), budget=30_000, usage_scale=1.8
    )
    with OpenAIChatServer(responder=model) as server:
        options = budget_options(ws, tmp_path, server, max_context_tokens=30_000)
        session = await Session.open(options)
        reader = Reader(session)
        assert session.status().calibration_ratio == 1.0
        await _turn(session, reader, prompt)
        status = session.status()
        # Another model's tokenizer counts differently: its ratio starts over.
        session.switch(model="gpt-4.1-mini")
        switched = session.status()
        await reader.close()
    assert not reader.of(TurnFailed), (len(model.mains), reader.of(TurnFailed)[0].message)
    assert model.violations == []
    assert 1.7 <= status.calibration_ratio <= 1.9
    assert (switched.model, switched.calibration_ratio) == ("gpt-4.1-mini", 1.0)
    compacted = reader.of(ThreadCompacted)
    assert compacted
    assert all(1.7 <= event.calibration_ratio <= 1.9 for event in compacted)
    # The soft threshold is 24,300 provider tokens: compaction came at about 24,300 / 1.8 of our estimate.
    soft = thresholds(GPT41_WINDOW, 30_000).soft
    assert soft is not None
    assert all(event.before_tokens < soft / 1.6 for event in compacted)


async def test_a_compaction_left_above_the_soft_threshold_is_redone_with_a_smaller_tail(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    write_workspace(ws)
    prompt = "read the modules"
    # Summaries of about 7,000 tokens: far more than planned for at a 16,000 budget.
    model = LongTurnModel(
        prompt=prompt,
        round_trips=90,
        counter=text_counter(),
        budget=16_000,
        summary_padding=3_000,
        verbatim_results=1,
    )
    with OpenAIChatServer(responder=model) as server:
        session = await Session.open(budget_options(ws, tmp_path, server, max_context_tokens=16_000))
        reader = Reader(session)
        await _turn(session, reader, prompt)
        await reader.close()
    assert not reader.of(TurnFailed)
    assert model.violations == []
    compacted = reader.of(ThreadCompacted)
    retried = [e for e in compacted if any("compacted again with a" in note for note in e.notes)]
    assert retried
    # Each compaction left the request under the soft threshold, so none failed the turn.
    assert max(m.reported for m in model.mains) < 16_000
