"""PreCompact may block a compaction; PostCompact is told the summary (a `/compact` between turns)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from tests.hooks.helpers import script
from tests.runtime.compaction_agent import Agent, budget_options, wait_turn_end, write_files
from tests.runtime.session_helpers import Reader
from vtcode.core.hooks.model import ConfiguredHook, HookEvent, HookHandler, HookSet, HookSource
from vtcode.protocol.events import Notice, ThreadCompacted, TurnCompleted, TurnFailed
from vtcode.protocol.ops import Compact, UserInput
from vtcode.runtime.session import Session
from vtcode.testing.openai_chat_server import OpenAIChatServer


def _hooks(*pairs: tuple[HookEvent, Path]) -> HookSet:
    source = HookSource("user", "vtcode.toml")
    return HookSet(
        tuple(ConfiguredHook(event, "", HookHandler(command=str(path)), source) for event, path in pairs)
    )


async def _compacted_session(tmp_path: Path, hooks: HookSet, *, blocked: bool) -> tuple[Reader, list[Notice]]:
    """Three turns, then `/compact`; waits for the compaction, or for the notice that it was blocked."""
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150))
    with OpenAIChatServer(responder=agent) as server:
        chosen = dataclasses.replace(
            budget_options(ws, tmp_path, server, max_context_tokens=30_000), hooks=hooks
        )
        session = await Session.open(chosen)
        reader = Reader(session)
        for n in range(3):
            ended = len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed))
            await session.submit(UserInput(f"task {n}: read the next files"))
            await wait_turn_end(reader, ended)
        await session.submit(Compact())
        if blocked:
            await reader.wait_for(Notice, lambda n: "PreCompact" in n.message)
        else:
            await reader.wait_for(ThreadCompacted)
        await reader.close()
    return reader, reader.of(Notice)


async def test_a_pre_compact_hook_blocks_the_compaction(tmp_path: Path) -> None:
    log = tmp_path / "trigger.log"
    block = script(
        tmp_path / "block.sh",
        f"python3 -c 'import json,sys; print(json.load(sys.stdin)[\"trigger\"])' >> {log}\n"
        "echo 'not now' >&2\nexit 2\n",
    )
    reader, notices = await _compacted_session(tmp_path, _hooks(("PreCompact", block)), blocked=True)
    assert reader.of(ThreadCompacted) == []
    assert log.read_text().split() == ["manual"]
    assert any(n.message == "compaction blocked by a PreCompact hook: not now" for n in notices)


async def test_post_compact_is_told_the_summary(tmp_path: Path) -> None:
    out = tmp_path / "post.json"
    record = script(tmp_path / "post.sh", f"cat > {out}\n")
    reader, _ = await _compacted_session(tmp_path, _hooks(("PostCompact", record)), blocked=False)
    assert [e.trigger for e in reader.of(ThreadCompacted)] == ["manual"]
    told = json.loads(out.read_text())
    assert told["hook_event_name"] == "PostCompact"
    assert told["trigger"] == "manual"
    assert told["compact_summary"]
