"""Typed Python hooks: observers at the turn loop's three boundaries (DESIGN.md section 2), and the
deciding hooks around tool calls and compaction (`sdk.tool_hooks`).

`pre_model_request` sees each request as it will be sent (after compaction and MCP tool changes),
`after_tool_batch` the checkpointed results of one reply's tool calls, `turn_end` how a turn ended. The
inputs are the runtime's own dataclasses. A hook may be sync or async; one that raises is logged and the
turn goes on (these hooks observe, they do not decide).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from vtcode.protocol.messages import Message
from vtcode.runtime.hooks import AfterToolBatch, BeforeRequest, HistoryReplacement, TurnEnd, TurnHooks
from vtcode.sdk.tool_hooks import Hook as DecidingHook
from vtcode.sdk.tool_hooks import PostTool, PreCompact, PreTool

log = logging.getLogger(__name__)

T = TypeVar("T")
Hook = Callable[[T], Awaitable[None] | None]


@dataclass(frozen=True)
class Hooks:
    """Python callbacks per boundary, called in the order given."""

    pre_model_request: Sequence[Hook[BeforeRequest]] = ()
    after_tool_batch: Sequence[Hook[AfterToolBatch]] = ()
    turn_end: Sequence[Hook[TurnEnd]] = ()
    # Deciding hooks (`sdk.tool_hooks`): a callback, or a `HookSpec` with a matcher and a timeout.
    pre_tool: Sequence[DecidingHook[PreTool]] = ()
    post_tool: Sequence[DecidingHook[PostTool]] = ()
    pre_compact: Sequence[DecidingHook[PreCompact]] = ()


def install(hooks: Hooks, turn: TurnHooks) -> None:
    """Register `hooks` on a session's turn loop, after the runtime's own."""
    for before in hooks.pre_model_request:
        turn.before_request.append(_before_request(before))
    for after in hooks.after_tool_batch:
        turn.after_tool_batch.append(_after_tool_batch(after))
    for end in hooks.turn_end:
        turn.end_of_turn.append(_turn_end(end))


async def observe(hook: Hook[T], value: T, boundary: str) -> None:
    """Call one observer; one that raises is logged (also for a session in a `vtcode acp` child)."""
    try:
        result = hook(value)
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.warning("a %s hook failed", boundary, exc_info=True)


def _before_request(
    hook: Hook[BeforeRequest],
) -> Callable[[BeforeRequest], Awaitable[HistoryReplacement | None]]:
    async def run(view: BeforeRequest) -> HistoryReplacement | None:
        await observe(hook, view, "pre_model_request")
        return None

    return run


def _after_tool_batch(hook: Hook[AfterToolBatch]) -> Callable[[AfterToolBatch], Awaitable[Sequence[Message]]]:
    async def run(batch: AfterToolBatch) -> Sequence[Message]:
        await observe(hook, batch, "after_tool_batch")
        return ()

    return run


def _turn_end(hook: Hook[TurnEnd]) -> Callable[[TurnEnd], Awaitable[None]]:
    async def run(end: TurnEnd) -> None:
        await observe(hook, end, "turn_end")

    return run
