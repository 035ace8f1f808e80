"""How long the user has really been quiet: a stretch in which the app did not run is not a pause.

A dialog arms once no key has come for a grace period. Measured by the clock alone, a stall (the process
got no CPU, or was stopped) looks like a pause: the keys typed meanwhile wait unread in the terminal,
and a timer that came due during the stall runs before they are read, so they would answer the dialog.
The dialog ticks at a short interval instead; a tick that comes late found a stall, and the quiet
period starts again after it (the keys typed meanwhile are read in that time and go where typing goes).
"""

from __future__ import annotations

# How often a dialog that is not armed yet looks at the clock.
TICK_SECONDS = 0.1
# A tick this much later than the previous one found a stall: the app did not run in between.
STALL_SECONDS = 0.3


class QuietClock:
    """Quiet time since the last key, not counting time before a stall; fed with monotonic times."""

    def __init__(self, now: float) -> None:
        self._since = now
        self._last_tick = now

    def key(self, now: float) -> None:
        """A key came: quiet starts again."""
        self._since = now

    def tick(self, now: float) -> float:
        """One tick (about every `TICK_SECONDS`); the seconds of quiet that count."""
        if now - self._last_tick > STALL_SECONDS:
            self._since = now
        self._last_tick = now
        return now - self._since
