"""A failed turn raises the error its exit code stands for, and every error pickles with its fields."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from vtcode.protocol.errors import (
    AgentFailedError,
    ConfigError,
    InterruptedByUser,
    InvalidOutputError,
    ProviderError,
    ProviderErrorKind,
    QueueFullError,
    StoreError,
    UsageError,
    VtcodeError,
)
from vtcode.protocol.messages import Usage
from vtcode.runtime import turn_end
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import HttpError, Reply
from vtcode.testing.wire import server_for

ERRORS: list[VtcodeError] = [
    ProviderError(ProviderErrorKind.RATE_LIMIT, "slow down", hint="wait", status=429, provider="openai"),
    ProviderError(ProviderErrorKind.AUTH, "bad key"),
    InterruptedByUser("interrupted by the user"),
    ConfigError("bad toml", hint="fix line 3"),
    UsageError("bad flag"),
    QueueFullError("queue full"),
    StoreError("disk full"),
    InvalidOutputError("not JSON"),
    AgentFailedError("too many turns", kind="max_turns"),
    AgentFailedError("looping", kind="loop_guard"),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: f"{type(e).__name__}-{getattr(e, 'kind', '')}")
def test_a_failed_turn_raises_the_error_with_the_same_exit_code_and_kind(error: VtcodeError) -> None:
    event = turn_end.failed(error)
    result: vt.TurnResult[None] = vt.TurnResult(
        session_id="s", status="failed", final_text="", usage=Usage(), items=(), error=event
    )
    with pytest.raises(VtcodeError) as raised:
        result.raise_for_status()
    assert type(raised.value) is type(error)
    assert int(raised.value.exit_code) == event.exit_code == int(error.exit_code)
    assert getattr(raised.value, "kind", None) == getattr(error, "kind", None)


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_every_error_pickles_with_its_fields(error: VtcodeError) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert vars(back) == vars(error)
    assert back.args == error.args


async def test_a_provider_refusal_fails_the_turn_and_raises_a_provider_error(
    tmp_path: Path, transport: TransportName
) -> None:
    with server_for("chat", [HttpError(401, "invalid key")]) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            result = await s.run("hi")
    assert result.status == "failed"
    with pytest.raises(vt.ProviderError) as raised:
        result.raise_for_status()
    assert (raised.value.kind, raised.value.exit_code) == (ProviderErrorKind.AUTH, 4)


async def test_a_completed_turn_passes_raise_for_status(tmp_path: Path, transport: TransportName) -> None:
    with server_for("chat", [Reply(text="fine")]) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            result = await s.run("hi")
    assert result.raise_for_status() is result
