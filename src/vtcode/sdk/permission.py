"""Who answers a tool call the rules left open, in one written order.

1. `[approvals] deny` rules refuse (nothing overrides them);
2. the sandbox confines every command that runs (`[sandbox]`);
3. the approval mode and `[approvals] allow` rules allow or refuse by the call's kind;
4. what is still open ("ask") goes to the `permission` callback when the session has one;
5. otherwise an `ApprovalRequested` event waits for `TurnHandle.approve()` (in `run()`, where nobody
   holds the handle, the call is refused with a reason the model reads).

Steps 1-3 are the runtime's (`core.approvals`, `runtime.tool_dispatch`), the same for every front end;
the SDK answers only what the runtime asks, so the order holds in `run()` and `events()` alike.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from vtcode.protocol.events import ApprovalRequested
from vtcode.protocol.ops import ApprovalAnswer

log = logging.getLogger(__name__)

ApprovalRequest: TypeAlias = ApprovalRequested
"""What a permission callback is asked about: the `approval.requested` event (tool, kind, display)."""

NO_ANSWER = (
    "nobody can approve this call: the program runs the turn with `run()` and no `permission` callback"
)


@dataclass(frozen=True)
class Allow:
    """Let the call run; `remember` also allows every call of the tool, or commands with its prefix.

    `updated_args` runs the call with these arguments instead (the request's `arguments`, a JSON object,
    are the originals); they must fit the tool's schema, and deny rules and the mode still refuse them.
    """

    remember: Literal["once", "tool", "prefix"] = "once"
    updated_args: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Deny:
    """Refuse the call; `reason` is what the model reads."""

    reason: str = ""


Decision: TypeAlias = Allow | Deny
PermissionCallback: TypeAlias = Callable[[ApprovalRequest], Decision | Awaitable[Decision]]


def answer(request_id: str, decision: Decision) -> ApprovalAnswer:
    """The runtime operation that carries `decision` for `request_id`."""
    match decision:
        case Allow(remember="tool", updated_args=updated):
            return ApprovalAnswer(request_id, "allow_tool", updated_arguments=_plain(updated))
        case Allow(remember="prefix", updated_args=updated):
            return ApprovalAnswer(request_id, "allow_prefix", updated_arguments=_plain(updated))
        case Allow(updated_args=updated):
            return ApprovalAnswer(request_id, "allow_once", updated_arguments=_plain(updated))
        case Deny(reason=reason):
            return ApprovalAnswer(request_id=request_id, decision="deny", reason=reason)
    raise TypeError(f"a permission decision is Allow(...) or Deny(...), not {decision!r}")


def _plain(updated: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if updated is None:
        return None
    if not isinstance(updated, Mapping):
        raise TypeError(f"Allow(updated_args=...) takes a mapping of argument names, not {updated!r}")
    return dict(updated)


async def consult(callback: PermissionCallback, request: ApprovalRequest) -> ApprovalAnswer:
    """Ask `callback` about `request`; a callback that fails or answers nonsense denies (fail closed)."""
    try:
        decision = callback(request)
        if inspect.isawaitable(decision):
            decision = await decision
        return answer(request.request_id, decision)
    except Exception as exc:
        log.warning("the permission callback failed on %s", request.request_id, exc_info=True)
        return ApprovalAnswer(
            request_id=request.request_id,
            decision="deny",
            reason=f"the permission callback failed: {type(exc).__name__}: {exc}",
        )
