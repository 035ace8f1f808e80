"""`/compact` between turns: the history is replaced, or left exactly as it was and the user told why."""

from __future__ import annotations

import asyncio
import logging

from vtcode.protocol.compaction_notices import COMPACTION_FAILED, COMPACTION_INTERRUPTED
from vtcode.protocol.errors import VtcodeError
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.wiring import Wiring

log = logging.getLogger(__name__)


async def compact_between_turns(wiring: Wiring, emitter: Emitter) -> None:
    """Compact now; an interrupt or a failure leaves the history as it was and says so."""
    try:
        replacement = await wiring.compactor.compact_now(wiring.state.messages)
        if replacement is not None:
            wiring.runner.apply(replacement)
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None:
            current.uncancel()
        emitter.warn(f"{COMPACTION_INTERRUPTED}; nothing changed")
    except VtcodeError as exc:
        emitter.warn(f"{COMPACTION_FAILED}: {exc.user_text()}")
    except Exception as exc:  # like a turn's last line of defence: the session stays usable
        log.debug("manual compaction failed", exc_info=True)
        emitter.warn(f"{COMPACTION_FAILED}: {type(exc).__name__}: {exc}")
