"""What a caller was already shown of a streamed reply, so a retried stream does not show it twice.

A connection that breaks after some answer text (and before any tool call) is retried like one that
broke before any output: the text is only text, nothing acted on it yet. The retried reply starts from
the beginning, so its text deltas are compared with what was shown: the part already shown is
swallowed and only the continuation is passed on. A retried reply whose text differs from what was
shown passes its differing rest on, and the caller is told once; the completed message (what history
keeps and the final answer shows) is always the retried reply's own, whole and once.
"""

from __future__ import annotations

from typing import Literal

from vtcode.protocol.model import Completed, ReasoningDelta, StreamEvent, TextDelta

_Kind = Literal["text", "reasoning"]


class ShownOutput:
    """The text and reasoning shown so far across the attempts of one request."""

    def __init__(self) -> None:
        self._shown: dict[_Kind, str] = {"text": "", "reasoning": ""}
        self._matched: dict[_Kind, int] = {"text": 0, "reasoning": 0}
        # A tool call (or anything but text) was passed on: the reply cannot be retried any more.
        self.committed = False
        self.diverged = False

    @property
    def any(self) -> bool:
        """Whether anything at all was passed on."""
        return self.committed or any(self._shown.values())

    def start_attempt(self) -> None:
        """A new attempt streams the reply from its beginning again."""
        self._matched = {"text": 0, "reasoning": 0}

    def pass_on(self, event: StreamEvent) -> StreamEvent | None:
        """The event to hand to the caller (trimmed to what is new), or None when it was all shown."""
        if isinstance(event, TextDelta):
            rest = self._new_part("text", event.text)
            return None if rest is None else TextDelta(text=rest)
        if isinstance(event, ReasoningDelta):
            rest = self._new_part("reasoning", event.text)
            return None if rest is None else ReasoningDelta(text=rest)
        if not isinstance(event, Completed):
            self.committed = True
        return event

    def _new_part(self, kind: _Kind, fragment: str) -> str | None:
        shown = self._shown[kind]
        at = self._matched[kind]
        if at >= len(shown):
            self._shown[kind] = shown + fragment
            self._matched[kind] = at + len(fragment)
            return fragment or None
        overlap = shown[at : at + len(fragment)]
        common = 0
        while common < len(overlap) and overlap[common] == fragment[common]:
            common += 1
        if common == len(fragment):
            self._matched[kind] = at + common
            return None
        if common < len(overlap):
            # The retried reply says something else than what was shown; from here on it is shown as is.
            self.diverged = True
            shown = shown[: at + common]
        rest = fragment[common:]
        self._shown[kind] = shown + rest
        self._matched[kind] = len(self._shown[kind])
        return rest
