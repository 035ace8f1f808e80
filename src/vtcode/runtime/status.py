"""What a session shows about itself (`/status`, the TUI's status line): model, tokens, context pressure.

The compaction thresholds shown are the ones the session's compactor decides with (SPEC section 6).
"""

from __future__ import annotations

from dataclasses import dataclass

from vtcode.core.compaction.thresholds import Thresholds
from vtcode.protocol.messages import Usage


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
