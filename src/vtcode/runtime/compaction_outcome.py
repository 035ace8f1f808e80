"""What follows a compaction in a live session: the gain and window checks, the pacing, the notices.

`Compactor` (in `compaction.py`) inherits this: it plans and runs a compaction; here the result is
checked against the thresholds and the window before the request is sent (SPEC 6.6 / 6.8), applied
once it is checkpointed, and failures arm the circuit breaker. The running calibration ratio per model
is read here too: every check speaks provider tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from vtcode.core.compaction.pacing import Pacing, growth_gap
from vtcode.core.compaction.plan import CompactionSettings
from vtcode.core.compaction.trigger import Suppression, classify_failure, escalate
from vtcode.core.compaction.window import biggest_items, gained_enough, over_window_message
from vtcode.core.context_pressure import ContextPressure
from vtcode.core.tokens import Calibration, MessageEstimator
from vtcode.protocol.compaction_notices import COMPACTION_FAILED, NOTHING_TO_COMPACT
from vtcode.protocol.errors import AgentFailedError
from vtcode.protocol.events import ThreadCompacted
from vtcode.protocol.messages import Message
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hooks import HistoryReplacement


class ContextWindowError(AgentFailedError):
    """The request about to be sent cannot fit the model's window, even after compaction."""


class Compacted(msgspec.Struct, frozen=True):
    """A compaction checkpoint-ready: the new history and the event to report once it is in place."""

    replacement: HistoryReplacement
    event: ThreadCompacted
    # The tail planned (estimated tokens): a quarter of it is the growth the next compaction waits for.
    tail_target: int


class CompactionOutcome:
    """The checks and bookkeeping after a compaction; the state is set by `Compactor.__init__`."""

    estimate: MessageEstimator
    settings: CompactionSettings
    enabled: bool
    pressure: ContextPressure
    suppression: Suppression
    _emitter: Emitter
    _calibrations: dict[str, Calibration]
    _current_model: str
    _sent_estimate: int | None
    _gain_failed_at: int | None
    _pacing: Pacing | None
    # Adds back what must outlive a compaction (the newest activation of each skill; runtime/skills).
    reattach: Callable[[Sequence[Message]], list[Message]] | None

    @property
    def calibration(self) -> Calibration:
        """The running ratio of reported to estimated prompt tokens for the session's current model."""
        return self.calibration_for(self._current_model)

    def calibration_for(self, model: str) -> Calibration:
        """The running ratio for `model` (1.0 before the provider reported on a request of it)."""
        return self._calibrations.get(model, Calibration())

    def _finish(
        self,
        done: Compacted | None,
        fixed: int,
        messages: Sequence[Message],
        *,
        check_window: bool = True,
    ) -> HistoryReplacement | None:
        """The gain check and the window check of SPEC 6.6 / 6.8 on what is about to be sent."""
        current = done.replacement.messages if done is not None else messages
        estimated = fixed + self.estimate.total(current)
        if check_window:
            self._sent_estimate = estimated
        tokens = self.calibration.provider(estimated)
        gained = gained_enough(tokens, self.settings.thresholds)
        if done is not None and gained and check_window:
            self._gain_failed_at = None
        elif done is not None and done.event.trigger == "auto":
            self._gain_failed_at = tokens
            self._emitter.warn(
                f"compaction left the request at about {tokens:,} tokens, above the soft threshold "
                f"({self.settings.thresholds.soft or 0:,}); another compaction would not help",
            )
        if check_window:
            problem = over_window_message(
                tokens, self.settings.capacity, biggest_items(current, self.estimate)
            )
            if problem is not None:
                hint = (
                    "automatic compaction is off (agent.harness.auto_compaction_enabled = false); "
                    "run /compact, or start a new session"
                    if not self.enabled
                    else "shorten or drop the largest items, or start a new session"
                )
                raise ContextWindowError(problem, hint=hint)
        if done is not None:
            self._pacing = Pacing(after_tokens=estimated, gap=growth_gap(done.tail_target))
            return self._applied_later(done)
        return None

    def _applied_later(self, done: Compacted) -> HistoryReplacement:
        if self.reattach is not None:
            replacement = done.replacement
            kept = self.reattach(replacement.messages)
            done = msgspec.structs.replace(
                done, replacement=msgspec.structs.replace(replacement, messages=kept)
            )

        def applied() -> None:
            self.pressure = self.pressure.after_compaction()
            self.suppression = Suppression.NONE
            self.estimate.forget_all_but(done.replacement.messages)
            self._emitter.emit(done.event)

        return msgspec.structs.replace(done.replacement, applied=applied)

    def _nothing(self, trigger: str) -> None:
        if trigger == "manual":
            self._emitter.inform(f"{NOTHING_TO_COMPACT}: the history fits in the verbatim continuity tail")

    def _failed(self, trigger: str, reason: str) -> None:
        if trigger == "auto":
            self.suppression = escalate(self.suppression, classify_failure(reason))
        self._emitter.warn(f"{COMPACTION_FAILED} ({reason}); the history is kept as it was")

    def _no_gain_error(self, tokens: int) -> AgentFailedError:
        return AgentFailedError(
            f"the context is still about {tokens:,} tokens after compaction, above the soft threshold "
            f"({self.settings.thresholds.soft or 0:,}); compacting again would not gain",
            hint="start a new session, or raise context.max_context_tokens",
        )
