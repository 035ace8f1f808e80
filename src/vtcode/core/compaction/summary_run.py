"""The summary conversation as a state machine the runtime drives: request, answer or failure, next.

Pure: the runtime sends `request` to the model (no tools) and reports back. Rules (SPEC 6.4): each chunk's
answer must have every heading, else it is asked once more; an overflow answer re-chunks the transcript
smaller; anything else, or a second bad answer, ends in the deterministic local summary.
"""

from __future__ import annotations

from vtcode.core.compaction.dedup import dedup_reads
from vtcode.core.compaction.fallback import fallback_summary
from vtcode.core.compaction.plan import CompactionPlan, Mode
from vtcode.core.compaction.summary import (
    SummaryBudget,
    chunk_transcript,
    missing_sections,
    previous_summary,
    retry_request,
    summary_request,
    transcript_messages,
)
from vtcode.core.tokens import TextCounter
from vtcode.protocol.errors import ProviderErrorKind
from vtcode.protocol.messages import Message

# Overflow answers halve the chunk size at most this many times before the local summary takes over.
MAX_RECHUNKS = 3
MIN_CHUNK_TOKENS = 512


class SummaryRun:
    """One summarization: `request` is what to send next, None once `summary` and `mode` are final."""

    def __init__(
        self,
        plan: CompactionPlan,
        count: TextCounter,
        workspace: str = "/",
        *,
        summary_so_far: str | None = None,
        summarized: int = 0,
    ) -> None:
        """`summary_so_far` already covers `plan.prefix[:summarized]` (the same compaction, retried with
        a smaller tail): only the rest of the prefix is sent, with it as the summary so far."""
        self._plan = plan
        self._count = count
        self._workspace = workspace
        self._budget = plan.budget
        # The summarizer reads each file range once (the newest read), as in reference 5.6; an earlier
        # summary is the summary so far, so the new one replaces it instead of quoting it.
        rest = plan.prefix[summarized:] if summary_so_far is not None else plan.prefix
        self._prefix = dedup_reads(transcript_messages(rest), plan.tail)
        self._chunks = chunk_transcript(self._prefix, count, plan.budget.chunk_tokens)
        self._index = 0
        self._previous: str | None = (
            summary_so_far if summary_so_far is not None else previous_summary(plan.prefix)
        )
        self._missing: list[str] | None = None
        self._rechunks = 0
        self.summary = ""
        self.mode = Mode.LOCAL
        self.notes: list[str] = []
        self.request: list[Message] | None = None
        if self._chunks:
            self._ask()
        elif self._previous is not None:
            # Nothing new to summarize: the earlier summary stands as it is.
            self.summary = self._previous
        elif plan.prefix:
            self._fall_back("the prefix has no text to summarize")

    def answered(self, text: str) -> None:
        """The model answered the current request with `text`."""
        missing = missing_sections(text)
        if not missing:
            self._previous, self._missing = text.strip(), None
            self._index += 1
            if self._index == len(self._chunks):
                self.summary, self.request = self._previous, None
                return
            self._ask()
        elif self._missing is None:
            self._missing = missing
            self._ask()
        else:
            self._fall_back(f"the summary lacked {', '.join(missing)} twice")

    def failed(self, message: str, kind: ProviderErrorKind | None = None) -> None:
        """The current request failed; an overflow re-chunks, anything else falls back."""
        if kind is ProviderErrorKind.CONTEXT_OVERFLOW and self._rechunk():
            self.notes.append(
                f"summary request overflowed; retrying in chunks of {self._budget.chunk_tokens}"
            )
            self._ask()
            return
        self._fall_back(f"the summary request failed: {message}")

    @property
    def chunk_count(self) -> int:
        """How many transcript parts the summary is currently asked in."""
        return len(self._chunks)

    @property
    def request_tokens(self) -> int:
        """The budget every request of this run stays within."""
        return self._budget.request_tokens

    def _ask(self) -> None:
        chunk = self._chunks[self._index].text
        if self._missing is None:
            self.request = summary_request(chunk, self._previous, self._budget, self._count)
        else:
            self.request = retry_request(chunk, self._previous, self._missing, self._budget, self._count)

    def _rechunk(self) -> bool:
        # The provider's window is smaller than we were told: halve what was actually sent.
        smaller = min(self._budget.chunk_tokens, self._count(self._chunks[self._index].text)) // 2
        if self._rechunks >= MAX_RECHUNKS or smaller < MIN_CHUNK_TOKENS:
            return False
        self._rechunks += 1
        self._budget = SummaryBudget(
            request_tokens=self._budget.request_tokens,
            previous_summary_tokens=self._budget.previous_summary_tokens,
            chunk_tokens=smaller,
        )
        # Chunks already summarized stay summarized (in `_previous`); only the rest is split anew.
        start = self._chunks[self._index].start
        rest = chunk_transcript(self._prefix[start:], self._count, smaller, offset=start)
        self._chunks = self._chunks[: self._index] + rest
        self._missing = None
        return bool(rest)

    def _fall_back(self, reason: str) -> None:
        self.notes.append(f"{reason}; using the deterministic local summary")
        self.summary = fallback_summary(self._plan.prefix, self._count, self._workspace)
        self.mode = Mode.FALLBACK
        self.request = None
