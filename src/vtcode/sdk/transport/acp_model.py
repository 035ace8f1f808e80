"""The program's `model_client` for a session in a `vtcode acp` child (`acp.client_model` is the proxy).

Each `_vtcode/model` request starts one stream of the client here and is answered with the events it
produced so far (at least one, or its end); `_vtcode/model_next` fetches the next batch. A stream that
fails ends with the error's fields (a `ProviderError` keeps its kind and status), so the child's turn
fails as it would in-process. `_vtcode/model_cancel` stops a stream the child no longer reads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import msgspec
from acp import RequestError

from vtcode.protocol.acp_messages import ModelBatch, ModelCall, StreamRef
from vtcode.protocol.acp_methods import MODEL
from vtcode.protocol.error_fields import error_fields
from vtcode.protocol.model import ModelRequest, StreamEvent

if TYPE_CHECKING:
    from vtcode.providers.base import ModelClient

log = logging.getLogger(__name__)


class _End(msgspec.Struct, frozen=True):
    error: dict[str, Any] | None = None


class _Stream:
    """One running stream of the client: its pump task and what it produced not yet sent."""

    def __init__(self, client: ModelClient, request: ModelRequest) -> None:
        self.queue: asyncio.Queue[StreamEvent | _End] = asyncio.Queue()
        self.task = asyncio.ensure_future(self._pump(client, request))

    async def _pump(self, client: ModelClient, request: ModelRequest) -> None:
        try:
            async for event in client.stream(request):
                self.queue.put_nowait(event)
        except Exception as exc:  # the model's failure is the child's turn's, as in-process
            log.debug("the model client raised", exc_info=True)
            self.queue.put_nowait(_End(error_fields(exc)))
        else:
            self.queue.put_nowait(_End())

    async def batch(self) -> ModelBatch:
        """What the stream produced since the last batch (waits for at least one item)."""
        items = [await self.queue.get()]
        while not isinstance(items[-1], _End) and not self.queue.empty():
            items.append(self.queue.get_nowait())
        end = items[-1] if isinstance(items[-1], _End) else None
        events = [e for e in items if not isinstance(e, _End)]
        return ModelBatch(events, done=end is not None, error=end.error if end is not None else None)


class ModelServer:
    """Runs one session's model requests on the program's `model_client`."""

    def __init__(self, client: ModelClient) -> None:
        self._client = client
        self._streams: dict[str, _Stream] = {}

    async def answer(self, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """Start a stream (`_vtcode/model`) or continue one (`_vtcode/model_next`): its next batch."""
        try:
            if method == MODEL:
                call = msgspec.convert(params, ModelCall)
                stream_id = call.stream_id
                self._streams[stream_id] = _Stream(self._client, call.request)
            else:
                stream_id = msgspec.convert(params, StreamRef).stream_id
        except msgspec.ValidationError as exc:
            raise RequestError.invalid_params({"details": f"bad model request: {exc}"}) from None
        stream = self._streams.get(stream_id)
        if stream is None:
            raise RequestError.invalid_params({"streamId": stream_id, "details": "no such stream"})
        batch = await stream.batch()
        if batch.done:
            self._streams.pop(stream_id, None)
        answer: dict[str, Any] = msgspec.to_builtins(batch)
        return answer

    def cancel(self, stream_id: str) -> None:
        """`_vtcode/model_cancel`: the child stopped reading the stream."""
        stream = self._streams.pop(stream_id, None)
        if stream is not None:
            stream.task.cancel()

    def cancel_all(self) -> None:
        """The connection is closing: every running stream stops."""
        for stream in self._streams.values():
            stream.task.cancel()
        self._streams.clear()
