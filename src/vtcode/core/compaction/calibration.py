"""Our token estimate calibrated to the provider's count (SPEC 6.3): thresholds speak provider tokens.

Pressure is the provider's reported prompt size, the tail is planned with our BPE estimate; a provider
whose tokenizer counts 1.3-2x ours (Anthropic, Gemini on code) left a compacted history "still above the
threshold" by its own figures, so compaction thrashed or failed the turn. The running ratio of reported
to estimated prompt tokens of the same request converts our estimates into provider tokens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MIN_RATIO = 0.5
MAX_RATIO = 3.0
# A figure this far from our estimate does not count the request we estimated (a proxy or test server
# that reports a placeholder, a count of the cached part only): it is not a sample.
PLAUSIBLE_RANGE = (0.2, 5.0)
# Weight of the newest sample: a few requests settle the ratio, one odd figure does not swing it.
SAMPLE_WEIGHT = 0.3


@dataclass(frozen=True)
class Calibration:
    """The running ratio of provider-reported to estimated prompt tokens (1.0 before any sample)."""

    ratio: float = 1.0
    samples: int = 0

    def observed(self, reported: int, estimated: int) -> Calibration:
        """The calibration after the provider reported `reported` tokens for a request we estimated."""
        if reported <= 0 or estimated <= 0:
            return self
        sample = reported / estimated
        low, high = PLAUSIBLE_RANGE
        if not low <= sample <= high:
            return self
        ratio = sample if self.samples == 0 else self.ratio + SAMPLE_WEIGHT * (sample - self.ratio)
        return Calibration(ratio=min(MAX_RATIO, max(MIN_RATIO, ratio)), samples=self.samples + 1)

    def provider(self, estimated: int) -> int:
        """`estimated` tokens of ours in provider tokens (rounded up: thresholds are upper bounds)."""
        return math.ceil(estimated * self.ratio)

    def ours(self, provider_tokens: int) -> int:
        """`provider_tokens` in tokens of our estimate (rounded down)."""
        return math.floor(provider_tokens / self.ratio)
