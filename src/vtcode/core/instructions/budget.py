"""The instruction byte budget (SPEC section 5, decision 7): a fair floor, then specificity.

Every source first gets its floor, min(its size, budget // number of sources); what is left goes to the
sources in order of specificity, most specific first, each up to its full size. So every small file
survives whole, one large source cannot starve the others, and the most specific ones are kept whole
where they fit. Specificity is a rank per source (higher is more specific, see `discovery`); among equal
ranks the later source in precedence order counts as more specific, as it wins conflicts.

A cut keeps the head of the source (a cut inside a UTF-8 sequence shows as U+FFFD, as in the original).
Bytes are counted over the expanded text (after frontmatter, comments and imports), never over the
headers, map or notes around it; the kept bytes never exceed the budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from vtcode.core.instructions.model import LoadedSource, Segment
from vtcode.core.instructions.render import Cut


class Allocation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one source keeps: `kept_bytes` of `total_bytes`; `text` is the kept part, possibly empty."""

    text: str
    kept_bytes: int
    total_bytes: int

    @property
    def truncated(self) -> bool:
        """Whether anything of the source was cut (including all of it)."""
        return self.kept_bytes < self.total_bytes

    @property
    def dropped(self) -> bool:
        """Whether nothing of a non-empty source is kept."""
        return self.kept_bytes == 0 < self.total_bytes


def specificity_order(ranks: Sequence[int]) -> list[int]:
    """Indexes of the sources, most specific first: higher rank, then later in precedence order."""
    return sorted(range(len(ranks)), key=lambda i: (-ranks[i], -i))


def floor_share(budget: int, count: int) -> int:
    """The bytes every source is sure of: an equal share of the budget."""
    return max(budget, 0) // count if count else 0


def allocate(texts: Sequence[str], ranks: Sequence[int], budget: int) -> list[Allocation]:
    """Allocate `budget` bytes over `texts` (in precedence order): fair floors, then by specificity."""
    sizes = [len(text.encode("utf-8")) for text in texts]
    share = floor_share(budget, len(texts))
    kept = [min(size, share) for size in sizes]
    remaining = max(budget, 0) - sum(kept)
    for index in specificity_order(ranks):
        extra = min(sizes[index] - kept[index], remaining)
        kept[index] += extra
        remaining -= extra
    return [_allocation(text, size, keep) for text, size, keep in zip(texts, sizes, kept, strict=True)]


def _allocation(text: str, size: int, kept: int) -> Allocation:
    if kept >= size:
        return Allocation(text, size, size)
    head = text.encode("utf-8")[:kept].decode("utf-8", errors="replace")
    return Allocation(head, kept, size)


class Fitted(NamedTuple):
    """Sources fitted into the budget: an allocation per source, the segments to render, the cuts."""

    allocations: list[Allocation]
    segments: list[Segment]
    cuts: list[Cut]


def fit_sources(sources: Sequence[LoadedSource], budget: int) -> Fitted:
    """Allocate `budget` over `sources`; a source whose kept part is blank renders no segment."""
    allocations = allocate([s.text for s in sources], [s.tier for s in sources], budget)
    segments: list[Segment] = []
    cuts: list[Cut] = []
    for source, allocation in zip(sources, allocations, strict=True):
        if allocation.truncated:
            cuts.append(Cut(source.display, allocation.kept_bytes, allocation.total_bytes))
        if allocation.text.strip():
            segments.append(Segment(source.display, source.label, allocation.text))
    return Fitted(allocations, segments, cuts)
