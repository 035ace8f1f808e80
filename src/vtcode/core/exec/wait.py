"""How long a command-session call may block, and when it returns (SPEC section 8.2).

Every call (start, write, poll, wait) waits for the same events: the shell exiting and the output
stream reaching end of file. This module turns "what happened so far" into "when to return", so the
session code only sleeps on events with one timeout and no polling interval.
"""

from __future__ import annotations

import math

YIELD_MIN_MS = 250
YIELD_MAX_MS = 30_000
EXEC_YIELD_DEFAULT_MS = 10_000
WRITE_YIELD_DEFAULT_MS = 250
POLL_YIELD_DEFAULT_MS = 1_000

WAIT_DEFAULT_SECONDS = 600
WAIT_CEILING_SECONDS = 3_600

# After the shell exits, how long the first report waits for a background process to release the
# output before saying "exited, output not drained" (reference section 4.1: up to 1 s of drain).
POST_EXIT_DRAIN_SECONDS = 1.0

MAX_OUTPUT_TOKENS_DEFAULT = 10_000
MAX_OUTPUT_TOKENS_LIMIT = 50_000
BYTES_PER_TOKEN = 4


def clamp_yield_ms(requested: int | None, default: int) -> int:
    """A yield window in milliseconds within [250, 30000]; missing means `default`, 0 means the minimum."""
    if requested is None:
        return default
    return max(YIELD_MIN_MS, min(YIELD_MAX_MS, requested))


def wait_ceiling(long_running_seconds: int, default_ceiling_seconds: int) -> int:
    """The configured ceiling for one wait; 0 falls back to the default ceiling, then to 3600 s."""
    return long_running_seconds or default_ceiling_seconds or WAIT_CEILING_SECONDS


def wait_deadline(requested: float | None, default: float, ceiling: float) -> float:
    """Seconds one wait may block: the request (or `default`), at least 1 s, never above `ceiling`."""
    chosen = default if requested is None or math.isnan(requested) else requested
    return max(1.0, min(chosen, ceiling))


def max_output_tokens(value: object) -> int:
    """The preview budget in tokens; anything but an integer in [1, 50000] is refused before spawning."""
    if value is None:
        return MAX_OUTPUT_TOKENS_DEFAULT
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_OUTPUT_TOKENS_LIMIT:
        raise ValueError(f"max_output_tokens must be an integer between 1 and {MAX_OUTPUT_TOKENS_LIMIT}")
    return value


def return_at(
    *,
    now: float,
    deadline: float,
    exited_at: float | None,
    drained: bool,
    exit_reported: bool,
) -> float:
    """The time at which a call should return; a value not after `now` means "return now".

    * exited and drained: now;
    * exited, output still held open by a background process: after a short drain grace the first time
      the exit is reported, and at the deadline once the model already knows (it is waiting for the
      complete spool);
    * running: at the deadline (a wait deadline never kills anything).
    """
    if exited_at is not None:
        if drained:
            return now
        if not exit_reported:
            return min(deadline, exited_at + POST_EXIT_DRAIN_SECONDS)
    return deadline
