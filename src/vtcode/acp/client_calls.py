"""Calls from the agent to an ACP client that runs part of a session itself (its tools, hooks, model).

`Caller` is the side of the connection that sends them; `withdraw` tells the client the turn stopped
waiting for one (an interrupt, a timeout), without waiting for the notification to go out.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

import msgspec

log = logging.getLogger(__name__)


class Caller(Protocol):
    """The side of the connection that sends the client extension requests."""

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send an extension request and wait for its answer."""
        ...

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """Send an extension notification."""
        ...


def withdraw(caller: Caller, method: str, params: msgspec.Struct) -> None:
    """Send the cancel notification `method` in the background: the call in the client may still run,
    and the turn that stopped waiting for it must not wait for the connection either."""
    notify = caller.ext_notification(method, msgspec.to_builtins(params))

    def sent(task: asyncio.Future[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.debug("_%s not sent: %s", method, task.exception())

    asyncio.ensure_future(notify).add_done_callback(sent)
