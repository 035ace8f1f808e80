"""A model the ACP client runs itself (the SDK's `model_client`, e.g. `ScriptedModel`, in the parent).

With `_meta.vtcode.model` the session's model client is this proxy: each model request is a
`_vtcode/model` request to the client, answered with the first stream events its model produced; the
proxy pulls the rest with `_vtcode/model_next` until the stream is done, so the turn loop sees the
stream as in-process (the same events, in order; a failure as the same `ProviderError`). A request the
turn stops waiting for (an interrupt) is withdrawn with `_vtcode/model_cancel`. A client that cannot
answer fails the request as a network error: the turn fails and the session stays resumable.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from acp import RequestError

from vtcode.acp.client_tools import Caller
from vtcode.protocol.acp_methods import MODEL, MODEL_CANCEL, MODEL_NEXT
from vtcode.protocol.error_fields import error_from_fields
from vtcode.protocol.errors import ProviderError, ProviderErrorKind
from vtcode.protocol.model import ModelRequest, StreamEvent

log = logging.getLogger(__name__)


class ModelBatch(msgspec.Struct, frozen=True):
    """Stream events the client's model produced since the last batch; `error` ends the stream failed."""

    events: list[StreamEvent] = []
    done: bool = False
    error: dict[str, Any] | None = None


class ClientModel:
    """A `ModelClient` whose requests the ACP client answers."""

    def __init__(self, caller: Caller, provider: str) -> None:
        self._caller = caller
        self._provider = provider

    @property
    def provider(self) -> str:
        """The client's model's provider name."""
        return self._provider

    async def aclose(self) -> None:
        """Nothing to release: the client owns its model."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Ask the client's model; its events as they come back, batch by batch."""
        stream_id = str(uuid.uuid4())
        params: dict[str, Any] = {"streamId": stream_id, "request": msgspec.to_builtins(request)}
        method, finished = MODEL, False
        try:
            while True:
                batch = await self._ask(method, params)
                for event in batch.events:
                    yield event
                if batch.error is not None:
                    finished = True
                    raise error_from_fields(batch.error) or self._failed("an unreadable error")
                if batch.done:
                    finished = True
                    return
                method, params = MODEL_NEXT, {"streamId": stream_id}
        finally:
            if not finished:
                # Interrupted (or the reader stopped early): the client's model may still run.
                notify = self._caller.ext_notification(MODEL_CANCEL, {"streamId": stream_id})
                asyncio.ensure_future(notify).add_done_callback(_ignore)

    async def _ask(self, method: str, params: dict[str, Any]) -> ModelBatch:
        try:
            raw = await self._caller.ext_method(method, params)
            return msgspec.convert(raw, ModelBatch)
        except (RequestError, ConnectionError) as exc:
            raise self._failed(f"no answer ({exc})") from None
        except msgspec.ValidationError as exc:
            raise self._failed(f"a malformed answer ({exc})") from None

    def _failed(self, what: str) -> ProviderError:
        return ProviderError(
            ProviderErrorKind.NETWORK,
            f"the program's model client gave {what}",
            hint="the program that runs the model may have stopped; resume the session to go on",
            provider=self._provider,
        )


def _ignore(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.debug("model cancel not sent: %s", task.exception())
