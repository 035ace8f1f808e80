"""Closing a session waits for its last checkpoint's fsyncs: a task left pending would be dropped when the
program's loop stops (a `SyncSession`'s loop stops right after its close), and the turn record it was
making durable would then be durable only by chance."""

from __future__ import annotations

import asyncio
from pathlib import Path

import vtcode.sdk as vt
from vtcode.sdk.testing import Reply, ScriptedModel


def _pending_syncs() -> list[asyncio.Task[object]]:
    return [t for t in asyncio.all_tasks() if t.get_name() == "vtcode-checkpoint-sync" and not t.done()]


async def test_a_closed_session_leaves_no_checkpoint_sync_pending(tmp_path: Path) -> None:
    model = ScriptedModel([Reply(text=f"answer {n}") for n in range(20)])
    for n in range(20):
        # A fresh session per turn: each close comes right after a turn record's fsyncs were started.
        session = await vt.Session.open(vt.Options(workspace=tmp_path, model_client=model))
        assert (await session.run(f"question {n}")).final_text == f"answer {n}"
        await session.close()
        assert _pending_syncs() == [], f"after close number {n + 1}"
