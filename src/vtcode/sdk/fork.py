"""`Session.fork(id, options)`: a new stored session that starts from a copy of another's history.

The copy is made in the store before the fork opens (history records only: no pending steering, no
pending approvals, no plan), so the original stays exactly as it was and both can be resumed later.
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from pathlib import Path


async def fork_history(home: Path, session_id: str) -> str:
    """Copy the stored session `session_id` under `home` into a new one; the new id.

    Raises `StoreError` (an `UnknownSessionError` for an id that names no session).
    """
    from vtcode.store.session import SessionStore
    from vtcode.store.session_fork import fork_session

    def copy() -> str:
        store = SessionStore(home, time.time, lambda: str(uuid.uuid4()))
        source = store.open(session_id)
        try:
            fork = fork_session(store, source, upto_seq=sys.maxsize, turns=source.info.turns, label="fork")
            fork.close()
            return fork.id
        finally:
            source.close()

    return await asyncio.to_thread(copy)
