"""Inline provider compaction (Anthropic's compaction edit, reference 5.4): when to ask, what counts.

The provider compacts a normal request itself when its input reaches the edit's trigger, and with
`pause_after_compaction` it stops right after writing the summary. What comes back is judged here: a
pause with a non-empty summary is used (the same shape as a local summary); anything else means the
edit did not fire, and the compaction is summarized locally.
"""

from __future__ import annotations

import msgspec

#: The edit's trigger for a compaction request: the smallest value the API accepts. The thresholds
#: already decided to compact, so the edit should fire for any history the API is willing to compact.
INLINE_TRIGGER_TOKENS = 50_000

#: Below this local estimate a request cannot reach the trigger, so it is not sent at all (a request
#: that does not compact is answered by the model: a full, wasted turn). Claude's tokenizer counts more
#: tokens than ours for the same text, hence the 20% margin under the trigger.
INLINE_MIN_ESTIMATE = INLINE_TRIGGER_TOKENS * 4 // 5

#: Stop reasons that mean "paused after compacting": `compaction` is what the API sends for
#: `pause_after_compaction`; `pause_turn` is its general "paused, send the turn back" reason.
PAUSE_STOP_REASONS = frozenset({"compaction", "pause_turn"})


class InlineVerdict(msgspec.Struct, frozen=True):
    """The summary to use, or why there is none (for the compaction's notes)."""

    summary: str | None
    reason: str = ""


def worth_trying(estimated_tokens: int) -> bool:
    """Whether a request of this estimate could reach the edit's trigger."""
    return estimated_tokens >= INLINE_MIN_ESTIMATE


def judge(stop_reason: str | None, compaction: str | None) -> InlineVerdict:
    """Reference 5.4 steps 3-4: a pause with a non-empty compaction text is the summary."""
    text = (compaction or "").strip()
    if stop_reason in PAUSE_STOP_REASONS and text:
        return InlineVerdict(summary=text)
    stop = stop_reason or "none"
    if compaction is None:
        # No stop reason: the model started answering, and the stream was closed there.
        said = f" (stop reason {stop_reason})" if stop_reason else ""
        return InlineVerdict(None, f"the compaction edit did not fire{said}")
    if not text:
        return InlineVerdict(None, "the provider's compaction summary was empty")
    return InlineVerdict(None, f"the reply did not pause after compacting (stop reason {stop})")


def edit_instructions(instructions: str | None) -> str | None:
    """Manual instructions for the edit, trimmed; blank ones are left out."""
    text = (instructions or "").strip()
    return text or None
