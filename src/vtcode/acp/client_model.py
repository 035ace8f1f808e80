"""A model the ACP client runs itself (the SDK's `model_client`, e.g. `ScriptedModel`, in the parent).

With `_meta.vtcode.model` the session's model client is this proxy: each model request is a
`_vtcode/model` request to the client, answered with the first stream events its model produced; the
proxy pulls the rest with `_vtcode/model_next` until the stream is done, so the turn loop sees the
stream as in-process (the same events, in order; a failure as the same `ProviderError`). A request the
turn stops waiting for (an interrupt) is withdrawn with `_vtcode/model_cancel`. A client that cannot
answer fails the request as a network error: the turn fails and the session stays resumable.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import msgspec
from acp import RequestError

from vtcode.acp.client_calls import Caller, withdraw
from vtcode.protocol.acp_messages import ModelBatch, ModelCall, StreamRef
from vtcode.protocol.acp_methods import MODEL, MODEL_CANCEL, MODEL_NEXT
from vtcode.protocol.error_fields import error_from_fields
from vtcode.protocol.errors import ProviderError, ProviderErrorKind
from vtcode.protocol.model import ModelRequest, StreamEvent


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
        ask: ModelCall | StreamRef = ModelCall(stream_id=stream_id, request=request)
        method, finished = MODEL, False
        try:
            while True:
                batch = await self._ask(method, ask)
                for event in batch.events:
                    yield event
                if batch.error is not None:
                    finished = True
                    raise error_from_fields(batch.error) or self._failed("an unreadable error")
                if batch.done:
                    finished = True
                    return
                method, ask = MODEL_NEXT, StreamRef(stream_id)
        finally:
            if not finished:
                # Interrupted (or the reader stopped early): the client's model may still run.
                withdraw(self._caller, MODEL_CANCEL, StreamRef(stream_id))

    async def _ask(self, method: str, ask: ModelCall | StreamRef) -> ModelBatch:
        try:
            raw = await self._caller.ext_method(method, msgspec.to_builtins(ask))
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
