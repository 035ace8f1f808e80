"""In-process hooks: Python callables the one hook dispatcher runs after an event's configured commands.

A program that embeds vtcode (the SDK) registers them per event with a matcher (the same tiers as
configured hooks, over the same tool names) and a timeout. They run in the order given, each seeing the
tool input as the one before it left it; a deny stops the chain. A callable that raises or overruns its
timeout counts by its `on_failure`: "block" fails closed (a PreToolUse policy), "allow" warns and goes
on. The chain reads as one `HookResult`, combined with the commands' results by the dispatcher's rules
(deny beats ask beats allow; a command's `updatedInput` comes first).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vtcode.core.hooks.matching import matches
from vtcode.core.hooks.model import HookEvent, OnFailure
from vtcode.core.hooks.outcome import BLOCKING_EVENTS, HookResult, Outcome, PermissionDecision

log = logging.getLogger(__name__)

HookCall = Callable[[Mapping[str, Any]], Awaitable[HookResult]]
DEFAULT_TIMEOUT = 60.0


@dataclass(frozen=True)
class CallableHook:
    """One callable under one event: it gets the event's input (as a command's stdin would) and answers."""

    event: HookEvent
    call: HookCall
    name: str
    matcher: str = ""
    timeout: float = DEFAULT_TIMEOUT
    on_failure: OnFailure = "allow"


def chosen(
    hooks: Sequence[CallableHook], event: HookEvent, names: Sequence[str] | None
) -> tuple[CallableHook, ...]:
    """The callables `event` runs for a subject known by `names` (None ignores matchers)."""
    return tuple(h for h in hooks if h.event == event and (names is None or matches(h.matcher, names)))


async def run_chain(hooks: Sequence[CallableHook], payload: Mapping[str, Any]) -> HookResult:
    """Run `hooks` in order on `payload` and fold their answers into one result."""
    current = dict(payload)
    decision: PermissionDecision | None = None
    reasons: list[str] = []
    contexts: list[str] = []
    warnings: list[str] = []
    updated: dict[str, Any] | None = None
    for hook in hooks:
        result = await _run_one(hook, current)
        if result.warning:
            warnings.append(result.warning)
        if result.context:
            contexts.append(result.context)
        if result.decision == "deny":
            return HookResult(
                "blocked", "deny", result.reason, "\n\n".join(contexts), None, "; ".join(warnings)
            )
        if result.decision is not None and (decision is None or _RANK[result.decision] > _RANK[decision]):
            decision, reasons = result.decision, []
        if result.decision is not None and result.decision == decision and result.reason:
            reasons.append(result.reason)
        if result.updated_input is not None:
            updated = dict(result.updated_input)
            current["tool_input"] = updated
    outcome: Outcome = "failed" if warnings and decision is None and updated is None else "success"
    return HookResult(
        outcome, decision, "; ".join(reasons), "\n\n".join(contexts), updated, "; ".join(warnings)
    )


_RANK: dict[PermissionDecision, int] = {"allow": 1, "ask": 2, "deny": 3}


async def _run_one(hook: CallableHook, payload: Mapping[str, Any]) -> HookResult:
    try:
        async with asyncio.timeout(hook.timeout):
            return await hook.call(payload)
    except TimeoutError:
        why = f"it ran longer than its timeout of {hook.timeout:g} s"
    except Exception as exc:  # a hook's bug is its failure, never the turn's
        log.debug("the hook %s raised", hook.name, exc_info=True)
        why = f"it raised {type(exc).__name__}: {exc}"
    if hook.on_failure == "block" and hook.event in BLOCKING_EVENTS:
        reason = f"the {hook.name} hook failed, so the call is blocked: {why}"
        return HookResult("failed", decision="deny", reason=reason, warning=reason)
    return HookResult("failed", warning=f"the {hook.name} hook failed, continuing without it: {why}")
