"""The summary requests of a compaction: the session's model, no tools, driven by `SummaryRun`.

One place runs the summary conversation for every compaction path (automatic, `/compact`, recovery) and
for a retry of the same compaction with a smaller tail, which sends only the part of the prefix the
summary so far does not cover.
"""

from __future__ import annotations

from collections.abc import Sequence

from vtcode.core.compaction.fallback import fallback_summary
from vtcode.core.compaction.plan import CompactionPlan, Mode
from vtcode.core.compaction.summary_run import SummaryRun
from vtcode.core.tokens import TextCounter
from vtcode.protocol.errors import AgentFailedError, ProviderError
from vtcode.protocol.messages import Message
from vtcode.protocol.model import Completed, ModelRequest, SystemPrompt
from vtcode.providers.base import ModelClient
from vtcode.runtime.provider_compaction import SUMMARIZER_SYSTEM


class Summarizer:
    """Asks the session's model for summaries; falls back to the deterministic one as `SummaryRun` says."""

    def __init__(self, client: ModelClient, model: str, count: TextCounter, workspace: str) -> None:
        self._client = client
        self._model = model
        self._count = count
        self._workspace = workspace

    async def summarize(
        self,
        plan: CompactionPlan,
        notes: list[str],
        *,
        earlier: tuple[str, Mode, int] | None = None,
    ) -> tuple[str, Mode]:
        """The summary of `plan.prefix` and where it came from; what happened goes to `notes`.

        `earlier` is (summary, mode, messages covered) of the same compaction with a larger tail: a model
        summary is extended with the rest of the prefix only; a deterministic one is written anew.
        """
        if earlier is not None and earlier[1] is Mode.FALLBACK:
            return fallback_summary(plan.prefix, self._count, self._workspace), Mode.FALLBACK
        if earlier is not None:
            run = SummaryRun(
                plan, self._count, self._workspace, summary_so_far=earlier[0], summarized=earlier[2]
            )
        else:
            run = SummaryRun(plan, self._count, self._workspace)
        while run.request is not None:
            try:
                text = await self._reply(run.request)
            except ProviderError as error:
                run.failed(error.message, error.kind)
            except AgentFailedError as error:
                run.failed(error.message)
            else:
                run.answered(text)
        notes += run.notes
        return run.summary, run.mode

    async def _reply(self, messages: Sequence[Message]) -> str:
        """One summary request: the same model, no tools, the asking user message last."""
        request = ModelRequest(
            model=self._model, system=SystemPrompt(SUMMARIZER_SYSTEM), messages=tuple(messages), tools=()
        )
        completed: Completed | None = None
        async for event in self._client.stream(request):
            if isinstance(event, Completed):
                completed = event
        if completed is None:
            raise AgentFailedError("the summary stream ended without a reply")
        return completed.message.content
