"""A failed turn as the exception the CLI's exit code stands for (`TurnResult.raise_for_status`).

| `turn.failed` kind                          | raised                  | exit code |
| ------------------------------------------- | ----------------------- | --------- |
| a provider kind (`rate_limit`, `auth`, ...) | `ProviderError`         | 4         |
| `interrupted`                               | `InterruptedByUser`     | 130       |
| `config`, `usage`                           | `ConfigError`, `UsageError` | 2     |
| `queue_full`                                | `QueueFullError`        | 3         |
| `store`                                     | `StoreError`            | 1         |
| `invalid_output`                            | `InvalidOutputError`    | 1         |
| anything else                               | `AgentFailedError`      | 1         |

Every one pickles with its fields (a worker process can send it back).
"""

from __future__ import annotations

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
from vtcode.protocol.events import TurnFailed

_PROVIDER_KINDS = {kind.value: kind for kind in ProviderErrorKind}
_PLAIN: dict[str, type[VtcodeError]] = {
    "interrupted": InterruptedByUser,
    "config": ConfigError,
    "usage": UsageError,
    "queue_full": QueueFullError,
    "store": StoreError,
}


def failure_error(failed: TurnFailed) -> VtcodeError:
    """The exception for a `turn.failed` event, its kind, message and hint kept."""
    hint = failed.hint or None
    if failed.kind in _PROVIDER_KINDS:
        return ProviderError(_PROVIDER_KINDS[failed.kind], failed.message, hint=hint)
    if failed.kind in _PLAIN:
        return _PLAIN[failed.kind](failed.message, hint=hint)
    if failed.kind == "invalid_output":
        return InvalidOutputError(failed.message, hint=hint)
    return AgentFailedError(failed.message, hint=hint, kind=failed.kind or None)
