"""The provider's own compaction (reference 5.1, 5.3-5.5): a standalone endpoint, else an inline edit.

Strategy order: OpenAI's `/responses/compact` where the host serves it, then Anthropic's compaction
edit on a normal request, then nothing (the caller summarizes locally). Every provider result goes
through the same normalization as a local one (`normalize_native`); a failure or a result that cannot be
used is a note, never an error: the local summary is always there behind it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from vtcode.core.compaction.inline import INLINE_TRIGGER_TOKENS, judge, worth_trying
from vtcode.core.compaction.plan import (
    CompactionPlan,
    CompactionResult,
    CompactionSettings,
    normalize_native,
)
from vtcode.core.compaction.summary import summary_message
from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.errors import ProviderError, ProviderErrorKind
from vtcode.protocol.messages import Message
from vtcode.protocol.model import ModelRequest, SystemPrompt
from vtcode.providers.base import InlineCompaction, ModelClient, NativeCompaction

SUMMARIZER_SYSTEM = "You summarize coding-agent sessions for their own continuation. You have no tools."


class ProviderCompaction:
    """Asks the session's provider to compact a planned history; None means "summarize locally"."""

    def __init__(
        self,
        *,
        client: ModelClient,
        model: str,
        estimate: MessageEstimator,
        settings: CompactionSettings,
        fixed_tokens: Callable[[ModelRequest], int],
        current_request: Callable[[], ModelRequest] | None = None,
    ) -> None:
        self._client = client
        self._model = model
        self._estimate = estimate
        self._settings = settings
        self._fixed_tokens = fixed_tokens
        # The session's next request (system prompt, tools, options): an inline compaction sends the
        # history exactly as a turn would, so the provider's prompt cache still covers it.
        self._current_request = current_request
        # Set when the provider refused the compaction edit (a model without it): not asked again.
        self.inline_refused = False

    async def compact(self, plan: CompactionPlan, notes: list[str]) -> CompactionResult | None:
        """The provider's compaction of `plan`, normalized; None: summarize locally (`notes` say why)."""
        client = self._client
        if isinstance(client, NativeCompaction) and client.native_compaction:
            return await self._standalone(client, plan, notes)
        if isinstance(client, InlineCompaction) and client.inline_compaction and not self.inline_refused:
            return await self._inline(client, plan, notes)
        return None

    async def _standalone(
        self, client: NativeCompaction, plan: CompactionPlan, notes: list[str]
    ) -> CompactionResult | None:
        """A compaction endpoint's shorter conversation, normalized (reference 5.3, 5.5)."""
        request = ModelRequest(
            model=self._model, system=SystemPrompt(SUMMARIZER_SYSTEM), messages=plan.source, tools=()
        )
        try:
            output = (await client.compact(request)).messages
        except ProviderError as error:
            notes.append(f"native compaction failed ({error.message}); summarizing locally")
            return None
        return self._normalized(output, plan, notes)

    async def _inline(
        self, client: InlineCompaction, plan: CompactionPlan, notes: list[str]
    ) -> CompactionResult | None:
        """The history sent with the provider's compaction edit (reference 5.4).

        Used only when the reply paused after a non-empty summary, which then opens the same shape a
        local summary would (normalized by reference 5.5: the local tail follows it). A failed request,
        or one the edit did not fire on, leaves the compaction to the local summary.
        """
        request = self._inline_request(plan)
        if not worth_trying(self._fixed_tokens(request) + self._estimate.total(plan.source)):
            return None  # below the edit's trigger: it could not fire
        try:
            reply = await client.compact_inline(request, trigger_tokens=INLINE_TRIGGER_TOKENS)
        except ProviderError as error:
            if error.kind is ProviderErrorKind.BAD_REQUEST:
                self.inline_refused = True
            notes.append(f"provider compaction failed ({error.message}); summarizing locally")
            return None
        verdict = judge(reply.stop_reason, reply.compaction)
        if verdict.summary is None:
            notes.append(f"{verdict.reason}; summarizing locally")
            return None
        result = self._normalized([summary_message(verdict.summary)], plan, notes)
        return msgspec.structs.replace(result, summary=verdict.summary) if result is not None else None

    def use_model(self, model: str, settings: CompactionSettings) -> None:
        """Summarize with `model` under `settings` (a `/model` switch)."""
        self._model = model
        self._settings = settings

    def _inline_request(self, plan: CompactionPlan) -> ModelRequest:
        """The session's own request (system prompt, tools, options) around the history to compact."""
        if self._current_request is None:
            return ModelRequest(
                model=self._model, system=SystemPrompt(SUMMARIZER_SYSTEM), messages=plan.source, tools=()
            )
        return msgspec.structs.replace(self._current_request(), messages=plan.source)

    def _normalized(
        self, output: Sequence[Message], plan: CompactionPlan, notes: list[str]
    ) -> CompactionResult | None:
        result = normalize_native(output, plan, self._estimate, self._settings)
        if result.problems:
            notes.append(f"native compaction unusable ({'; '.join(result.problems)}); summarizing locally")
            return None
        return result
