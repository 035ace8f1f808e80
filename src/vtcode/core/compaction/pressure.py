"""Context pressure: what the thresholds compare against (reference section 1.4), as immutable values."""

from __future__ import annotations

from dataclasses import dataclass, replace

from vtcode.protocol.messages import Usage


@dataclass(frozen=True)
class Pressure:
    """The last provider-reported prompt size, raised to the estimate of the request about to be sent.

    `pending` is the soft-threshold mark: compact at the next boundary even if pressure has fallen.
    """

    tokens: int = 0
    pending: bool = False

    def with_estimate(self, estimate: int) -> Pressure:
        """Record the estimate of the request about to be sent: pressure never goes down here."""
        return replace(self, tokens=max(self.tokens, estimate))

    def with_usage(
        self, prompt_tokens: int, *, completion_tokens: int = 0, total_tokens: int = 0
    ) -> Pressure:
        """Overwrite with what the provider reported; prompt 0 falls back to total - completion, else keep."""
        if prompt_tokens > 0:
            return replace(self, tokens=prompt_tokens)
        if total_tokens > 0:
            return replace(self, tokens=max(0, total_tokens - completion_tokens))
        return self

    def with_reported(self, usage: Usage) -> Pressure:
        """`with_usage` for our `Usage`, whose `input_tokens` is the whole prompt, cached part included."""
        return self.with_usage(usage.input_tokens)

    def marked_pending(self) -> Pressure:
        """The soft threshold was crossed: compact at the next boundary."""
        return replace(self, pending=True)

    def after_compaction(self) -> Pressure:
        """Reset after a successful compaction: the next request's estimate becomes the new floor."""
        return Pressure()
