"""What a session shows about itself (`/status`, the TUI's status line): model, tokens, context pressure.

The compaction thresholds follow SPEC section 6: hard = 90 % of min(window, `context.max_context_tokens`)
rounded half away from zero, or the explicit `auto_compaction_threshold_tokens` capped by the window;
soft = hard - hard // 10.
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass

from vtcode.config.schema import Settings
from vtcode.protocol.messages import Usage


@dataclass(frozen=True)
class Thresholds:
    """Context sizes (tokens) at which compaction is planned (soft) and forced (hard)."""

    soft: int
    hard: int


def thresholds(settings: Settings, context_window: int) -> Thresholds:
    """The soft and hard compaction thresholds for a model with `context_window` tokens."""
    explicit = settings.agent.harness.auto_compaction_threshold_tokens
    if explicit:
        hard = min(explicit, context_window)
    else:
        budget = settings.context.max_context_tokens or context_window
        capacity = min(context_window, budget)
        ninety = decimal.Decimal(capacity) * decimal.Decimal("0.9")
        hard = int(ninety.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))
    return Thresholds(soft=hard - hard // 10, hard=hard)


@dataclass(frozen=True)
class SessionStatus:
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

    @property
    def pressure(self) -> float:
        """`context_tokens` as a share of the hard threshold (1.0 means compaction is due)."""
        return self.context_tokens / self.thresholds.hard if self.thresholds.hard else 0.0
