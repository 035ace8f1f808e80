"""Provider failures as a program sees them: 429s are retried, one that never ends is a retryable
`ProviderError` with its status, and every error class carries the CLI's exit code."""

from __future__ import annotations

from pathlib import Path

import pytest

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options
from tests.sdk.transport_params import in_process_each_and_one_subprocess
from vtcode.protocol.errors import (
    AgentFailedError,
    BudgetExceededError,
    ConfigError,
    InterruptedByUser,
    InvalidOutputError,
    ProviderError,
    ProviderErrorKind,
    QueueFullError,
    StoreError,
    Terminated,
    UsageError,
    VtcodeError,
)
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import HttpError, Reply
from vtcode.testing.wire import Wire, server_for

# Asked to wait 10 ms, so the retries take no time.
SLOW_DOWN = HttpError(429, "rate limited", headers={"retry-after-ms": "10"})

# The exit code each error stands for, as `vtcode exec` exits with it (SPEC section 2).
EXIT_CODES: list[tuple[type[VtcodeError], int]] = [
    (AgentFailedError, 1),
    (InvalidOutputError, 1),
    (BudgetExceededError, 1),
    (StoreError, 1),
    (ConfigError, 2),
    (UsageError, 2),
    (QueueFullError, 3),
    (ProviderError, 4),
    (InterruptedByUser, 130),
    (Terminated, 143),
]


@in_process_each_and_one_subprocess("wire", ["chat", "anthropic"])
async def test_three_429s_then_a_reply_succeed(tmp_path: Path, wire: Wire, transport: TransportName) -> None:
    with server_for(wire, [SLOW_DOWN, SLOW_DOWN, SLOW_DOWN, Reply(text="made it")]) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, wire=wire, transport=transport)) as s:
            result = await s.run("hi")
        sent = len(server.requests)
    assert (result.status, result.final_text) == ("completed", "made it")
    assert sent == 4


async def test_a_429_that_never_ends_is_a_retryable_provider_error_with_its_status(
    tmp_path: Path, transport: TransportName
) -> None:
    with server_for("chat", [SLOW_DOWN] * 10) as server:
        async with await vt.Session.open(sdk_options(tmp_path, server, transport=transport)) as s:
            result = await s.run("hi")
        sent = len(server.requests)
    assert result.status == "failed"
    with pytest.raises(vt.ProviderError) as raised:
        result.raise_for_status()
    error = raised.value
    assert (error.status, error.retryable, error.kind, error.exit_code) == (
        429,
        True,
        ProviderErrorKind.RATE_LIMIT,
        4,
    )
    assert error.provider == "openai"
    # The first request and the configured four retries.
    assert sent == 5


@pytest.mark.parametrize(("error", "code"), EXIT_CODES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_each_error_class_carries_the_exit_code_of_the_cli(error: type[VtcodeError], code: int) -> None:
    assert int(error.exit_code) == code
    assert issubclass(error, vt.VtcodeError)
