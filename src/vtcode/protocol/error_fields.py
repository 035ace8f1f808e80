"""An exception as JSON fields and back, for the ACP extensions that cross a process boundary (the SDK's
hooks and model client over its subprocess transport): a `VtcodeError` keeps its class, message and
hint, a `ProviderError` also its kind, status, provider and retry-after; any other exception comes back
as a `RaisedElsewhere` of the same type name, so every message that names an exception's type (a hook's
failure, an internal error) reads the same as in one process."""

from __future__ import annotations

from typing import Any

from vtcode.protocol import errors
from vtcode.protocol.errors import ProviderError, ProviderErrorKind, VtcodeError


def error_fields(error: BaseException) -> dict[str, Any]:
    """The fields that rebuild `error` on the other side (`error_from_fields`)."""
    if not isinstance(error, VtcodeError):
        return {"type": type(error).__name__, "message": str(error)}
    found: dict[str, Any] = {"type": type(error).__name__, "message": error.message, "hint": error.hint}
    if isinstance(error, ProviderError):
        found.update(
            kind=error.kind.value, status=error.status, provider=error.provider, retryAfter=error.retry_after
        )
    return found


class RaisedElsewhere(Exception):
    """An exception raised in the other process; its class is named after the original's type."""


def raised_elsewhere(name: str, message: str) -> RaisedElsewhere:
    """An exception whose type is called `name` (as `type(exc).__name__` shows it) with `message`."""
    kind: type[RaisedElsewhere] = type(
        name if name.isidentifier() else "Exception", (RaisedElsewhere,), {"__module__": __name__}
    )
    return kind(message)


def error_from_fields(raw: object) -> Exception | None:
    """The error `raw` describes, as close to the original as its fields allow (None: not an error)."""
    if not isinstance(raw, dict):
        return None
    name, message = str(raw.get("type", "")), str(raw.get("message", ""))
    hint = raw.get("hint") if isinstance(raw.get("hint"), str) else None
    if "kind" in raw:
        try:
            return ProviderError(
                ProviderErrorKind(raw["kind"]),
                message,
                hint=hint,
                status=raw.get("status") if isinstance(raw.get("status"), int) else None,
                provider=str(raw.get("provider") or ""),
                retry_after=raw.get("retryAfter") if isinstance(raw.get("retryAfter"), int | float) else None,
            )
        except ValueError:
            pass
    known = getattr(errors, name, None)
    if isinstance(known, type) and issubclass(known, VtcodeError) and known is not ProviderError:
        try:
            made: VtcodeError = known(message, hint=hint)
        except TypeError:
            pass
        else:
            return made
    return raised_elsewhere(name, message)
