"""The repeated-call guard: a model stuck re-sending the same tool calls is told, then stopped."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

from vtcode.protocol.messages import ToolCall

REPEAT_WARN_AT = 5
REPEAT_WARNING = (
    f"this is the {REPEAT_WARN_AT}th identical call in a row; its result would not change, so it was not "
    "run. Use what the earlier results said, try a different approach, or answer the user"
)


class RepeatWatch:
    """Counts replies that repeat the previous reply's tool calls exactly (same names, same arguments).

    The 5th identical reply in a row is not run and the model is told why; a 6th ends the turn: without
    this, a model stuck in a loop burns every request up to `--max-turns`.
    """

    def __init__(self) -> None:
        self._last: tuple[tuple[str, str], ...] = ()
        self.count = 0

    def see(self, calls: Sequence[ToolCall]) -> Literal["run", "warn", "stop"]:
        """What to do with this reply's calls."""
        signature = tuple((c.name, _canonical(c.arguments)) for c in calls)
        self.count = self.count + 1 if signature == self._last else 1
        self._last = signature
        if self.count < REPEAT_WARN_AT:
            return "run"
        return "warn" if self.count == REPEAT_WARN_AT else "stop"


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments or "{}"), sort_keys=True)
    except ValueError:
        return arguments
