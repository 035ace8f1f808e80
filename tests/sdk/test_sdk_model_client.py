"""A program's own `model_client` answers every model request on either transport: its failures fail the
turn with the same provider error, an interrupt stops its stream, and a broken client cannot hang a turn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import vtcode.sdk as vt
from vtcode.protocol.model import ModelRequest, StreamEvent, TextDelta
from vtcode.sdk.testing import HttpError, Reply, ScriptedModel
from vtcode.sdk.transport import TransportName


class StuckModel:
    """A model client that says one word, then waits for ever; it notes when its stream is stopped."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.stopped = asyncio.Event()

    @property
    def provider(self) -> str:
        """Provider name."""
        return "stuck"

    async def aclose(self) -> None:
        """Nothing to release."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """One delta, then nothing until cancelled."""
        try:
            yield TextDelta("thinking")
            self.started.set()
            await asyncio.Event().wait()
        finally:
            self.stopped.set()


class RaisingModel(StuckModel):
    """A model client with a bug."""

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Fail before any output."""
        raise RuntimeError("the model adapter has a bug")
        yield TextDelta("unreachable")  # pragma: no cover - makes this a generator


async def test_a_model_client_error_fails_the_turn_with_the_same_provider_error(
    tmp_path: Path, transport: TransportName
) -> None:
    model = ScriptedModel([HttpError(429, "slow down")], provider="scripted")
    options = vt.Options(workspace=tmp_path, model_client=model, transport=transport)
    async with await vt.Session.open(options) as s:
        result = await s.run("hello")
        again_model_requests = len(model.requests)
    assert result.status == "failed"
    with pytest.raises(vt.ProviderError) as failed:
        result.raise_for_status()
    assert (failed.value.status, failed.value.retryable, failed.value.provider) == (429, True, "scripted")
    assert again_model_requests == 1


async def test_interrupting_a_turn_stops_the_model_clients_stream(
    tmp_path: Path, transport: TransportName
) -> None:
    model = StuckModel()
    options = vt.Options(workspace=tmp_path, model_client=model, transport=transport)
    async with await vt.Session.open(options) as s:
        turn = await s.start("think")
        await asyncio.wait_for(model.started.wait(), 60)
        await turn.interrupt()
        result = await asyncio.wait_for(turn.result(), 60)
        await asyncio.wait_for(model.stopped.wait(), 60)
    assert result.status == "interrupted"


async def test_a_model_client_that_raises_fails_the_turn_without_a_traceback(
    tmp_path: Path, transport: TransportName
) -> None:
    options = vt.Options(workspace=tmp_path, model_client=RaisingModel(), transport=transport)
    async with await vt.Session.open(options) as s:
        result = await asyncio.wait_for(s.run("hello"), 60)
        # The session takes the next turn.
        s_next = await asyncio.wait_for(s.run("again"), 60)
    assert result.status == "failed"
    assert result.error is not None
    # The same words as in-process: the exception's type and message, no traceback.
    assert (result.error.kind, result.error.message) == (
        "internal",
        "internal error: RuntimeError: the model adapter has a bug",
    )
    assert s_next.status == "failed"


async def test_a_scripted_model_drives_a_subprocess_session_offline_and_sees_its_requests(
    tmp_path: Path,
) -> None:
    model = ScriptedModel([Reply(text="one"), Reply(text="two")])
    options = vt.Options(workspace=tmp_path, model_client=model, transport="subprocess", model="my-model")
    async with await vt.Session.open(options) as s:
        first = await s.run("first prompt")
        second = await s.run("second prompt")
    assert (first.final_text, second.final_text) == ("one", "two")
    assert [r.model for r in model.requests] == ["my-model", "my-model"]
    assert "first prompt" in str(model.requests[1].messages)
    assert "second prompt" in str(model.requests[1].messages)
