"""The instruction byte budget (SPEC section 5, decision 7): specific sources are kept, general ones cut.

Every source has a tier (higher is more specific: user files lowest, then configured extra files, then
the workspace hierarchy by depth, matched rules highest). The budget is handed out from the most
specific tier down; inside a tier, in precedence order (lowest first, as the original reads them). A
source that fits is kept whole; the first one that does not fit keeps the head that does (a cut inside
a UTF-8 sequence shows as U+FFFD) and every source after it in that order is dropped. So the nearest
file is kept whole whenever it fits, and the least specific files are the first to go.

Bytes are counted over the expanded text (after frontmatter, comments and imports), never over the
headers, map or notes around it; the kept bytes never exceed the budget.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec


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


def allocate(texts: Sequence[str], tiers: Sequence[int], budget: int) -> list[Allocation]:
    """Allocate `budget` bytes over `texts` (in precedence order), most specific tier first."""
    encoded = [text.encode("utf-8") for text in texts]
    allocations: list[Allocation | None] = [None] * len(texts)
    remaining = max(budget, 0)
    for index in sorted(range(len(texts)), key=lambda i: (-tiers[i], i)):
        data = encoded[index]
        if len(data) <= remaining:
            allocations[index] = Allocation(texts[index], len(data), len(data))
            remaining -= len(data)
            continue
        kept = data[:remaining].decode("utf-8", errors="replace")
        allocations[index] = Allocation(kept, remaining, len(data))
        remaining = 0
    return [a for a in allocations if a is not None]
