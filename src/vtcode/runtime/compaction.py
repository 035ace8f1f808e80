"""Continuity compaction in a live session: when to compact, the summary requests, and the bookkeeping.

The decisions and the shape of the result are pure (`core/compaction`); this class owns what a session
keeps between requests (the cached message estimates, the context pressure, the failure circuit breaker)
and does the I/O: summary requests through the session's model client (no tools), the archive segment,
the envelope (under the steering lock), and `thread.compacted` once the new history is checkpointed.

Entry points: `before_request` (automatic, soft and hard thresholds, and a `/compact` asked for while a
turn runs), `on_overflow` (recovery after a context-overflow error) and `compact_now` (`/compact` between
turns).

Thresholds, the tail and the gain check speak provider tokens: our estimate times the running ratio of
reported to estimated prompt tokens (`core.tokens.Calibration`). At most one compaction runs per
boundary, the next automatic one waits for growth, and one that would not gain is retried with a smaller
tail before the turn fails (`core.compaction.pacing`). The checks after a compaction, and the
calibration read by every check, are in `compaction_outcome`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from vtcode.config.schema import Settings
from vtcode.core.compaction.envelope import (
    Envelope,
    Placement,
    place,
    render,
    strip_envelopes,
)
from vtcode.core.compaction.pacing import (
    FIRST_SUMMARY_GUESS_TOKENS,
    Pacing,
    planned_tail,
    smaller_tails,
)
from vtcode.core.compaction.plan import (
    CompactionPlan,
    CompactionResult,
    CompactionSettings,
    assemble,
    plan_compaction,
)
from vtcode.core.compaction.split import newest_batch_tokens
from vtcode.core.compaction.summary import is_summary_message
from vtcode.core.compaction.trigger import Action, Decision, Suppression, decide
from vtcode.core.compaction.window import gained_enough, recovery_split
from vtcode.core.context_pressure import ContextPressure
from vtcode.core.tokens import Calibration, MessageEstimator, TextCounter
from vtcode.protocol.errors import ProviderError, ProviderErrorKind, VtcodeError
from vtcode.protocol.events import CompactionTrigger, ThreadCompacted
from vtcode.protocol.messages import Message, Usage
from vtcode.protocol.model import ModelRequest
from vtcode.providers.base import ModelClient
from vtcode.runtime.compaction_files import archive_history, memory_envelope, record_envelope
from vtcode.runtime.compaction_outcome import Compacted, CompactionOutcome
from vtcode.runtime.compaction_summarizer import Summarizer
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hooks import BeforeRequest, ContextOverflow, HistoryReplacement
from vtcode.runtime.provider_compaction import ProviderCompaction
from vtcode.runtime.request_estimate import FixedTokens, LazyCounter
from vtcode.runtime.stored_history import StoredHistory

if TYPE_CHECKING:
    from vtcode.runtime.lifecycle_hooks import LifecycleHooks

# The envelope message placed after a compaction (header, artifact path), in estimated tokens.
_ENVELOPE_TOKENS = 64


class Compactor(CompactionOutcome):
    """Compaction for one session; register `before_request` and `on_overflow` as turn hooks."""

    def __init__(
        self,
        *,
        client: ModelClient,
        model: str,
        settings: Settings,
        window: int,
        workspace: Path,
        history: StoredHistory,
        emitter: Emitter,
        clock: Callable[[], float],
        count: TextCounter | None = None,
        current_request: Callable[[], ModelRequest] | None = None,
    ) -> None:
        self._client = client
        self._model = model
        self._workspace = str(workspace)
        self._history = history
        self._emitter = emitter
        self._clock = clock
        # The BPE tables take ~0.2 s to load: only once a request is big enough to need them.
        self._count = count or LazyCounter()
        self.estimate = MessageEstimator(self._count)
        harness = settings.agent.harness
        self.enabled = harness.auto_compaction_enabled
        # Reference 2.1: both keys on, or no history artifact is written and no envelope is injected.
        dynamic = settings.context.dynamic
        self.persist = dynamic.enabled and dynamic.persist_history
        self._memory_envelope: Envelope | None = None  # an ephemeral session's, between its compactions
        self.settings = CompactionSettings(
            capacity=window,
            session_budget=settings.context.max_context_tokens,
            explicit_threshold=harness.auto_compaction_threshold_tokens,
            retained_user_tokens=settings.context.dynamic.retained_user_tokens,
            workspace=self._workspace,
        )
        self.pressure = ContextPressure()
        # Per model of this session: a switched model's tokenizer counts differently.
        self._calibrations: dict[str, Calibration] = {}
        self._current_model = model
        # PreCompact / PostCompact lifecycle hooks (set by the wiring when configured).
        self.hooks: LifecycleHooks | None = None
        self.suppression = Suppression.NONE
        # Our estimate of the request last sent through `before_request`, to pair with its usage.
        self._sent_estimate: int | None = None
        self._fixed = 0
        self._pacing: Pacing | None = None
        self._compacted_at: tuple[int, int] | None = None
        self._summarizer = Summarizer(client, model, self._count, self._workspace)
        self._seen_usage: Usage | None = None
        self._manual_pending = False
        # Set when a compaction left the request above the soft threshold: the next one fails the turn.
        self._gain_failed_at: int | None = None
        # Adds back what must outlive a compaction (the newest activation of each skill; runtime/skills).
        self.reattach: Callable[[Sequence[Message]], list[Message]] | None = None
        self._fixed_tokens = FixedTokens(self._count)
        self._provider = ProviderCompaction(
            client=client,
            model=model,
            estimate=self.estimate,
            settings=self.settings,
            fixed_tokens=self._fixed_tokens,
            current_request=current_request,
        )

    def use_model(self, model: str, window: int) -> None:
        """Compact for another model from its next request: thresholds follow its window (SPEC 6.2)."""
        self._model = model
        self.settings = msgspec.structs.replace(self.settings, capacity=window)
        self._provider.use_model(model, self.settings)

    # -- entry points ------------------------------------------------------------------------------

    def request_manual(self) -> None:
        """`/compact` while a turn runs: compact at that turn's next before-request boundary."""
        self._manual_pending = True

    def take_manual(self) -> bool:
        """Whether a `/compact` is still waiting (the turn ended without another request); clears it."""
        pending, self._manual_pending = self._manual_pending, False
        return pending

    async def before_request(self, view: BeforeRequest) -> HistoryReplacement | None:
        """The before-request hook: decide (reference 3.2), compact, then check the request fits."""
        if not self._manual_pending and self._clearly_below_thresholds(view):
            self._sent_estimate = None
            return None
        fixed = self._fixed = self._fixed_tokens(view.request)
        if view.request is not None:
            self._current_model = view.request.model
        tokens = fixed + self.estimate.total(view.messages)
        usage = view.pressure.last_usage
        if usage is not None and usage is not self._seen_usage:
            self._seen_usage = usage
            self.pressure = self.pressure.with_reported(usage)
            if self._sent_estimate is not None:
                observed = self.calibration.observed(usage.input_tokens, self._sent_estimate)
                self._calibrations[self._current_model] = observed
        boundary = (view.turn, view.request_no)
        if self._manual_pending:
            self._manual_pending = False
            done = await self._compact(view.messages, "manual", "manual", Placement.START)
            self._compacted_at = boundary if done is not None else self._compacted_at
            return self._finish(done, fixed, view.messages)
        self.pressure = self.pressure.with_estimate(self.calibration.provider(tokens))
        decision = decide(
            self.pressure,
            self.settings.thresholds,
            enabled=self.enabled,
            suppression=self.suppression,
            history_len=len(view.messages),
        )
        self.pressure = decision.pressure
        done = None
        if self._may_compact(decision, boundary, tokens):
            if self._gain_failed_at is not None:
                raise self._no_gain_error(self._gain_failed_at)
            done = await self._compact(
                view.messages, "auto", decision.trigger, Placement.BEFORE_LAST_USER_OR_SUMMARY
            )
            self._compacted_at = boundary if done is not None else self._compacted_at
        return self._finish(done, fixed, view.messages)

    def _may_compact(self, decision: Decision, boundary: tuple[int, int], tokens: int) -> bool:
        """At most one compaction per boundary; a soft one only once the history grew by the gap."""
        if decision.action is not Action.COMPACT or boundary == self._compacted_at:
            return False
        if decision.trigger == "hard" or self._pacing is None:
            return True
        return self._pacing.allows(tokens)

    def _clearly_below_thresholds(self, view: BeforeRequest) -> bool:
        """True when no token count can reach the soft threshold, so nothing needs counting exactly.

        A BPE token spans at least one byte, so the request's UTF-8 size (the pressure estimate is its
        bytes / 4) bounds its token count from above; the provider's last figure is exact.
        """
        soft = self.settings.thresholds.soft
        if soft is None or self._gain_failed_at is not None:
            return False
        upper = view.pressure.estimated_tokens * 4
        return max(upper, view.pressure.last_prompt_tokens or 0) < soft

    async def on_overflow(self, overflow: ContextOverflow) -> HistoryReplacement | None:
        """Recovery (reference 5.7): compact what is older than the turn's user message, keep the rest.

        Off means off: with automatic compaction disabled the turn fails with a hint to `/compact`. The
        circuit breaker does not apply (one recovery per turn is the runner's limit).
        """
        error = overflow.error
        if not self.enabled:
            raise ProviderError(
                ProviderErrorKind.CONTEXT_OVERFLOW,
                error.message,
                hint="automatic compaction is off (agent.harness.auto_compaction_enabled = false); "
                "run /compact, or start a new session",
                status=error.status,
                provider=error.provider,
            )
        messages = list(overflow.messages)
        turn_start = next(
            (i for i, m in enumerate(messages) if m.meta.turn == overflow.turn), len(messages) - 1
        )
        split = recovery_split(messages, turn_start)
        if split <= 0:
            return None
        done = await self._compact(
            messages[:split], "recovery", "recovery", Placement.START, messages[split:]
        )
        self._sent_estimate = None
        return self._finish(done, self._fixed, messages, check_window=False)

    async def compact_now(self, messages: Sequence[Message]) -> HistoryReplacement | None:
        """`/compact` between turns: the replacement to checkpoint, or None (a notice says why)."""
        done = await self._compact(messages, "manual", "manual", Placement.START)
        if done is None:
            return None
        return self._applied_later(done)

    # -- the compaction ----------------------------------------------------------------------------

    async def _compact(
        self,
        messages: Sequence[Message],
        trigger: CompactionTrigger,
        reason: str,
        placement: Placement,
        keep_after: Sequence[Message] = (),
    ) -> Compacted | None:
        """Plan, summarize, assemble, archive and write the envelope; None when nothing changes.

        A failure is reported as a notice and arms the circuit breaker (reference 3.4); the history is
        left as it was, so the request is still sent.
        """
        handle = self._history.handle
        if self.hooks is not None and not await self.hooks.pre_compact(trigger):
            return None
        source = strip_envelopes(messages)
        around = self._fixed + self.estimate.total(keep_after) + _ENVELOPE_TOKENS
        plan, target = self._plan(source, around)
        notes: list[str] = []
        result = await self._provider.compact(plan, notes) if plan.prefix else None
        if result is None:
            result = await self._summarized(source, plan, around, notes)
        if result.problems:
            self._failed(trigger, "; ".join(result.problems))
            return None
        if not result.changed:
            # Everything is tail already (an oversized newest group is shortened, so that changes).
            self._nothing(trigger)
            return None
        full = [*messages, *keep_after]
        before = self.estimate.total(full)
        # The artifact's figures leave out the envelope, which is rendered after it is written.
        after = result.tokens_after + self.estimate.total(keep_after)
        relative: str | None = None
        if handle is None:
            # An ephemeral session stores nothing, but its requests must still fit the window: the same
            # compaction, its envelope kept in memory (no archive for `recall_history` to read).
            envelope = self._memory_envelope = memory_envelope(
                result.messages, full, self._memory_envelope, workspace=self._workspace, ts=self._clock()
            )
        else:
            try:
                if self.persist:
                    relative = archive_history(handle, full, trigger, before, after, ts=self._clock())
                # Written either way: steering keeps its bookkeeping there (replaced intents are applied).
                envelope = record_envelope(
                    handle,
                    result.messages,
                    full,
                    workspace=self._workspace,
                    artifact=relative,
                    ts=self._clock(),
                )
            except VtcodeError as error:
                self._failed(trigger, error.message)
                return None
        shaped = (
            place(result.messages, render(envelope, in_history=True), placement)
            if self.persist
            else list(result.messages)
        )
        new = [*shaped, *keep_after]
        event = ThreadCompacted(
            trigger=trigger,
            before_messages=len(full),
            after_messages=len(new),
            before_tokens=before,
            after_tokens=self.estimate.total(new),
            artifact_path=relative,
            reason=reason,
            mode=str(result.mode),
            notes=tuple(notes),
            calibration_ratio=round(self.calibration.ratio, 3),
            tail_target_tokens=target,
        )
        replacement = HistoryReplacement(messages=new, summary=result.summary, artifact_path=relative)
        if self.hooks is not None and self.hooks.active("PostCompact"):
            await self.hooks.post_compact(trigger, result.summary)
        return Compacted(replacement=replacement, event=event, tail_target=target)

    def _plan(self, source: Sequence[Message], around: int) -> tuple[CompactionPlan, int]:
        """The plan and its tail target in estimated tokens.

        The SPEC target in provider tokens, capped to leave room to grow, never below the newest batch.
        """
        calibration = self.calibration
        spec = calibration.ours(self.settings.tail_target)
        plan = plan_compaction(source, self.estimate, self.settings, tail_tokens=spec)
        earlier = [self.estimate(m) for m in source if is_summary_message(m)]
        summary = earlier[-1] if earlier else FIRST_SUMMARY_GUESS_TOKENS
        retained = self.estimate(plan.retained.block) if plan.retained.block is not None else 0
        planned = planned_tail(
            self.settings.tail_target,
            self.settings.thresholds.soft,
            calibration.provider(around),
            calibration.provider(summary + retained),
        )
        target = min(spec, max(calibration.ours(planned), newest_batch_tokens(source, self.estimate)))
        if target < spec:
            plan = plan_compaction(source, self.estimate, self.settings, tail_tokens=target)
        return plan, target

    async def _summarized(
        self, source: Sequence[Message], plan: CompactionPlan, around: int, notes: list[str]
    ) -> CompactionResult:
        """Summarize and assemble; while the result would not gain, again with half the tail."""
        summary, mode = await self._summarizer.summarize(plan, notes)
        result = assemble(plan, summary, mode, self.estimate, self.settings)
        tail = self.estimate.total(plan.tail)
        for smaller in smaller_tails(tail, newest_batch_tokens(source, self.estimate)):
            if self._gains(result.tokens_after + around) or not plan.prefix:
                break
            covered = len(plan.prefix)
            retry = plan_compaction(source, self.estimate, self.settings, tail_tokens=smaller)
            if retry.prefix[:covered] != plan.prefix:
                break  # not a longer prefix of the same split: keep what we have
            plan = retry
            summary, mode = await self._summarizer.summarize(plan, notes, earlier=(summary, mode, covered))
            result = assemble(plan, summary, mode, self.estimate, self.settings)
            notes.append(f"still above the soft threshold: compacted again with a {smaller:,}-token tail")
        return result

    def _gains(self, tokens: int) -> bool:
        return gained_enough(self.calibration.provider(tokens), self.settings.thresholds)
