"""Hooks at a session's boundaries: start and end, a submitted prompt, the end of a turn, compaction.

UserPromptSubmit may add hidden context or block (the prompt is then never stored); Stop may send the
model back to work with a reason, at most `STOP_BLOCK_CAP` times per user turn (counted across tool
calls, never reset by them), and not again when the same answer meets the same reason; PreCompact may
block a compaction; SessionEnd shares a short budget so it cannot hold up exit.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vtcode.core.hooks.model import HookEvent
from vtcode.protocol.compaction_notices import COMPACTION_BLOCKED
from vtcode.protocol.messages import MessageMeta, UserMessage
from vtcode.runtime.hook_dispatch import HookDispatch

if TYPE_CHECKING:
    from vtcode.runtime.emitter import Emitter
    from vtcode.runtime.turn import TurnRunner

log = logging.getLogger(__name__)

STOP_BLOCK_CAP = 8


@dataclass(frozen=True)
class PromptVerdict:
    """What UserPromptSubmit hooks said about a prompt."""

    blocked: bool = False
    reason: str = ""
    # Hidden context for the model, next to the prompt (empty: none).
    context: str = ""


class LifecycleHooks:
    """The non-tool events of one session's hooks."""

    def __init__(self, dispatch: HookDispatch) -> None:
        self.dispatch = dispatch
        # The model's answer and the Stop hook's reason at the turn's last block.
        self._last_stop: tuple[str, str] | None = None

    def active(self, event: HookEvent) -> bool:
        """Whether any trusted hook listens to `event`."""
        return self.dispatch.active(event)

    async def start(self, runner: TurnRunner, *, resumed: bool) -> None:
        """SessionStart (`startup` or `resume`); the context its hooks add goes to the model with the
        next user message (with the environment context item)."""
        if not self.active("SessionStart"):
            return
        source = "resume" if resumed else "startup"
        combined = await self.dispatch.fire("SessionStart", {"source": source}, subject=source)
        context = self.dispatch.model_context(combined, "SessionStart")
        if context:
            runner.context = with_context(runner.context, context)

    async def end(self, *, headless: bool) -> None:
        """SessionEnd, within its budget; it cannot block anything, and a failure never stops cleanup."""
        if not self.active("SessionEnd"):
            return
        reason = "other" if headless else "prompt_input_exit"
        try:
            await self.dispatch.fire("SessionEnd", {"reason": reason}, subject=reason)
        except Exception:
            log.warning("SessionEnd hooks failed", exc_info=True)

    async def prompt_submitted(self, prompt: str) -> PromptVerdict:
        """UserPromptSubmit: block (the prompt is erased) or context for the model."""
        combined = await self.dispatch.fire("UserPromptSubmit", {"prompt": prompt})
        if combined.blocked:
            return PromptVerdict(blocked=True, reason=combined.reason)
        return PromptVerdict(context=self.dispatch.model_context(combined, "UserPromptSubmit"))

    async def stop(self, final_text: str, blocks: int) -> str | None:
        """Stop: the reason to keep working, or None to end the turn (always None past the cap)."""
        payload = {"stop_hook_active": blocks > 0, "last_assistant_message": final_text}
        combined = await self.dispatch.fire("Stop", payload)
        if not combined.blocked or combined.stop:
            return None
        blocked = "a Stop hook blocked the end of this turn"
        if past_stop_cap(self.dispatch.emitter, blocks, blocked, "the turn", combined.reason):
            return None
        last, self._last_stop = self._last_stop, (final_text, combined.reason)
        if blocks > 0 and last == self._last_stop:
            # The same answer met the same reason: another round would only repeat it.
            self.dispatch.emitter.warn(
                f"{blocked} again for the same reason and the answer did not change; the turn ends "
                f"(reason: {combined.reason})"
            )
            return None
        return combined.reason

    async def pre_compact(self, trigger: str) -> bool:
        """PreCompact: whether the compaction may go ahead (a hook may block it)."""
        if not self.active("PreCompact"):
            return True
        combined = await self.dispatch.fire("PreCompact", {"trigger": trigger}, subject=trigger)
        if combined.blocked:
            self.dispatch.emitter.warn(f"{COMPACTION_BLOCKED} by a PreCompact hook: {combined.reason}")
        return not combined.blocked

    async def post_compact(self, trigger: str, summary: str) -> None:
        """PostCompact, told the new summary."""
        await self.dispatch.fire(
            "PostCompact", {"trigger": trigger, "compact_summary": summary}, subject=trigger
        )


def with_context(message: UserMessage | None, text: str) -> UserMessage:
    """The context item to send before the next user message, with `text` added to it."""
    if message is None:
        return UserMessage(text, meta=MessageMeta(kind="context"))
    return UserMessage(f"{message.content}\n\n{text}", meta=message.meta, images=message.images)


def past_stop_cap(emitter: Emitter, blocks: int, blocked: str, who: str, reason: str) -> bool:
    """Whether a Stop-like hook blocked `STOP_BLOCK_CAP` times already; then `who` ends anyway (a notice)."""
    if blocks < STOP_BLOCK_CAP:
        return False
    emitter.warn(f"{blocked} {STOP_BLOCK_CAP} times; {who} ends anyway (last reason: {reason})")
    return True
