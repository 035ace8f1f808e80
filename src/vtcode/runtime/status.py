"""What a session shows about itself (`/status`, the TUI's status line): model, tokens, context pressure.

The compaction thresholds shown are the ones the session's compactor decides with (SPEC section 6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from vtcode.core.compaction.thresholds import Thresholds
from vtcode.core.context_pressure import ContextPressure
from vtcode.protocol.messages import Usage

if TYPE_CHECKING:
    from vtcode.runtime.wiring import Wiring


class SessionStatus(msgspec.Struct, frozen=True):
    """A snapshot of one session for a person.

    `context_tokens` is the prompt size of the latest request as the provider reported it (0 before the
    first reply); `cost` is None where no price is known.
    """

    session_id: str
    provider: str
    model: str
    profile: str
    usage: Usage
    context_tokens: int
    context_window: int
    thresholds: Thresholds
    running_jobs: int
    pending_intents: int
    running: bool
    cost: float | None = None
    # Held by a pause, or by an interrupt with input waiting (`session.paused`).
    paused: bool = False
    # How tool calls are judged and commands confined, and what the user allowed for this session.
    approval_mode: str = ""
    sandbox_mode: str = ""
    grants: tuple[str, ...] = ()
    # Provider-reported prompt tokens per token of vtcode's estimate, for this session and model
    # (1.0 until the provider reported any); the thresholds are compared in provider tokens.
    calibration_ratio: float = 1.0

    @property
    def pressure(self) -> float:
        """`context_tokens` as a share of the hard threshold (1.0 means compaction is due)."""
        return self.context_tokens / self.thresholds.hard if self.thresholds.hard else 0.0


class ContextMeter:
    """How big the context is now, for a person: the provider's count of the latest request, except
    right after a compaction (the compacted size until the next request) and on a resumed session before
    its first request (an estimate of the stored history, computed once)."""

    def __init__(self, *, resumed: bool) -> None:
        self._resumed = resumed
        self._estimate: int | None = None
        # The compacted size, and the provider count it replaced (None before any request).
        self._compacted: tuple[int, Usage | None] | None = None

    def compacted(self, after_tokens: int, last: Usage | None) -> None:
        """The history was compacted to about `after_tokens` while `last` was the latest count."""
        self._compacted = (after_tokens, last)

    def pressure(self, wiring: Wiring) -> ContextPressure:
        """The context to show: its size (`tokens`), the provider's latest count and the window."""
        return ContextPressure(
            tokens=self.tokens(wiring),
            last_usage=wiring.state.last_usage,
            context_window=wiring.runner.context_window,
        )

    def tokens(self, wiring: Wiring) -> int:
        """The context size to show."""
        last = wiring.state.last_usage
        if self._compacted is not None and self._compacted[1] is last:
            return self._compacted[0]
        if last is not None:
            return last.input_tokens
        if not self._resumed:
            return 0
        if self._estimate is None:
            self._estimate = wiring.compactor.estimate.total(wiring.state.messages)
        return self._estimate


def session_status(
    wiring: Wiring,
    context: ContextMeter,
    *,
    running_jobs: int,
    pending_intents: int,
    running: bool,
    paused: bool,
) -> SessionStatus:
    """The status of the session `wiring` wires."""
    state = wiring.state
    dispatcher = wiring.dispatcher
    pressure = context.pressure(wiring)
    return SessionStatus(
        session_id=wiring.thread_id,
        provider=wiring.provider_name,
        model=wiring.model,
        profile=wiring.prompt.profile,
        usage=state.usage_total,
        context_tokens=pressure.tokens,
        context_window=pressure.context_window,
        thresholds=wiring.compactor.settings.thresholds,
        running_jobs=running_jobs,
        pending_intents=pending_intents,
        running=running,
        paused=paused,
        approval_mode=dispatcher.policy.mode,
        sandbox_mode=wiring.options.settings.sandbox.mode,
        grants=tuple(g.describe() for g in dispatcher.grants.listed()),
        calibration_ratio=wiring.compactor.calibration_for(wiring.model).ratio,
        cost=wiring.usage.ledger.report().cost_usd if wiring.usage is not None else None,
    )
