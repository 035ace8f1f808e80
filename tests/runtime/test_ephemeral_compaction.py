"""An ephemeral session (`--ephemeral`, the SDK's `ephemeral=True`) stores nothing, yet compacts like any."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests.runtime.compaction_agent import Agent, budget_options, texts, wait_turn_end, write_files
from tests.runtime.session_helpers import Reader
from vtcode.core.compaction.envelope import ENVELOPE_HEADER
from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.protocol.events import ThreadCompacted, TurnCompleted, TurnFailed
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.testing.openai_chat_server import OpenAIChatServer


async def test_an_ephemeral_session_compacts_past_the_threshold_and_stores_nothing(tmp_path: Path) -> None:
    agent = Agent(write_files(tmp_path / "ws", 12, 150))
    with OpenAIChatServer(responder=agent) as server:
        options = budget_options(tmp_path / "ws", tmp_path, server, max_context_tokens=30_000)
        session = await Session.open(dataclasses.replace(options, ephemeral=True))
        reader = Reader(session)
        for n in range(9):
            ended = len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed))
            await session.submit(UserInput(f"task {n}: read the next files"))
            await wait_turn_end(reader, ended)
        await reader.close()
    # Before: the history grew past the window and the turn died "even after compaction" (none ran).
    assert not reader.of(TurnFailed)
    assert len(reader.of(TurnCompleted)) == 9
    compacted = reader.of(ThreadCompacted)
    assert compacted
    assert {e.artifact_path for e in compacted} == {None}
    # What the model sees after it: the summary and the envelope in place of the older turns.
    last = agent.bodies("main")[-1]
    assert any(t.startswith(SUMMARY_PREFIX) for t in texts(last, "system"))
    assert any(t.startswith(ENVELOPE_HEADER) for t in texts(last, "system"))
    assert "task 0: read the next files" not in [
        m["content"] for m in last["messages"] if m["role"] == "user"
    ]
    # Nothing was written for the session.
    assert _stored(tmp_path) == []


def _stored(root: Path) -> list[Path]:
    return [*root.rglob("history.jsonl"), *root.rglob("envelope.json")]
