"""How full the model's context is before a request (pure): what compaction, hooks and `/status` read.

One snapshot type for every reader. The turn loop takes one before each request (the provider's count
of the previous request, the cheap estimate of this one, the window) and hands it to the before-request
hooks; the compactor keeps its running pressure in the same type, raised by its calibrated estimates
and marked pending at the soft threshold (reference section 1.4).
"""

from __future__ import annotations

import msgspec

from vtcode.protocol.messages import Usage


class ContextPressure(msgspec.Struct, frozen=True):
    """The figures known just before a model request is sent.

    `tokens` is what the thresholds compare against: the provider's count of the previous request, raised
    to the estimate of the one about to be sent (the count is exact for what was sent before, but the new
    request adds the last reply and tool results, which only the estimate sees). `pending` is the
    soft-threshold mark: compact at the next boundary even if the pressure has fallen.

    `estimated_tokens` is the local estimate of the request about to be sent (UTF-8 bytes / 4,
    `core.tokens.request_byte_tokens`; 0 where none was made); `last_usage` what the provider reported
    for the previous request of the session (None before the first reply); `context_window` the model's
    window in tokens (0 where unknown).
    """

    tokens: int = 0
    pending: bool = False
    estimated_tokens: int = 0
    last_usage: Usage | None = None
    context_window: int = 0

    @classmethod
    def before_request(
        cls, *, context_window: int, estimated_tokens: int, last_usage: Usage | None
    ) -> ContextPressure:
        """A request about to be sent: the provider's last count raised to `estimated_tokens`."""
        # `with_reported` then `with_estimate`, built at once: this runs before every request.
        reported = last_usage.input_tokens if last_usage is not None and last_usage.input_tokens > 0 else 0
        return cls(
            tokens=max(reported, estimated_tokens),
            estimated_tokens=estimated_tokens,
            last_usage=last_usage,
            context_window=context_window,
        )

    @property
    def last_prompt_tokens(self) -> int | None:
        """The provider's prompt size of the previous request (None before a reply, or when it reported 0)."""
        last = self.last_usage
        return last.input_tokens if last is not None and last.input_tokens else None

    @property
    def ratio(self) -> float:
        """`tokens` as a share of the window (may exceed 1.0)."""
        return self.tokens / self.context_window if self.context_window > 0 else 0.0

    def with_estimate(self, estimate: int) -> ContextPressure:
        """Record the estimate of the request about to be sent: pressure never goes down here."""
        return msgspec.structs.replace(self, tokens=max(self.tokens, estimate))

    def with_usage(
        self, prompt_tokens: int, *, completion_tokens: int = 0, total_tokens: int = 0
    ) -> ContextPressure:
        """Overwrite with what the provider reported; prompt 0 falls back to total - completion, else keep."""
        if prompt_tokens > 0:
            return msgspec.structs.replace(self, tokens=prompt_tokens)
        if total_tokens > 0:
            return msgspec.structs.replace(self, tokens=max(0, total_tokens - completion_tokens))
        return self

    def with_reported(self, usage: Usage) -> ContextPressure:
        """`with_usage` for our `Usage`, whose `input_tokens` is the whole prompt, cached part included."""
        return self.with_usage(usage.input_tokens)

    def marked_pending(self) -> ContextPressure:
        """The soft threshold was crossed: compact at the next boundary."""
        return msgspec.structs.replace(self, pending=True)

    def after_compaction(self) -> ContextPressure:
        """Reset after a successful compaction: the next request's estimate becomes the new floor."""
        return ContextPressure(context_window=self.context_window)
