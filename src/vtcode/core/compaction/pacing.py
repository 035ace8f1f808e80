"""No thrash, no death (SPEC 6.3, 6.6): how big a tail to plan and when the next compaction may come.

A compaction must leave room to work. The tail target (20,000, or half a hard threshold under 40,000) is
capped so that, after the fixed part of every request (system prompt, tool schemas) and the summary
head, half of what remains under the soft threshold is left for the history to grow into: at a 16,000
budget the fixed part is a fifth of it, and a full tail target would leave a few round trips between
compactions. The next automatic compaction waits until the history has grown by a quarter of the tail
target (the hard threshold or an overflow still forces one). A compaction that still leaves the request
above the soft threshold is done again with half the tail, down to the newest whole batch, before the
gain check may fail the turn. The tail and thresholds are provider tokens; the growth is measured in
estimated tokens (`Pacing`).
"""

from __future__ import annotations

import msgspec

# The head of a first compaction (summary, envelope) before any summary exists to measure.
FIRST_SUMMARY_GUESS_TOKENS = 2_000


def planned_tail(spec_target: int, soft: int | None, fixed: int, head: int) -> int:
    """The tail to plan: the SPEC target, capped at half of the room left under the soft threshold."""
    if soft is None:
        return spec_target
    room = soft - fixed - head
    return max(1, min(spec_target, room // 2))


def smaller_tails(target: int, floor: int) -> list[int]:
    """The tails to try after `target` when a compaction would not gain: halved, down to `floor`."""
    tails: list[int] = []
    while target > floor:
        target = max(floor, target // 2)
        tails.append(target)
    return tails


class Pacing(msgspec.Struct, frozen=True):
    """What the last compaction left: the request's size then, and the growth the next one waits for.

    Both in estimated tokens, so the growth is measured on what changed in the history, not on a ratio
    that moved in between; the hard threshold is checked by the caller and always may compact.
    """

    after_tokens: int
    gap: int

    def allows(self, tokens: int) -> bool:
        """Whether a soft-threshold compaction may run at `tokens`: the history grew by the gap."""
        return tokens - self.after_tokens >= self.gap


def growth_gap(tail_target: int) -> int:
    """The growth a next automatic compaction waits for: a quarter of the tail target."""
    return max(1, tail_target // 4)
