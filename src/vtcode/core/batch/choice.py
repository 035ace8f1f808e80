"""Which tasks of the file a `batch run` takes: `--shuffle`, `--filter REGEX`, `--slice A:B`.

As mini-swe-agent does: the ids are first sorted and shuffled with a seed (42 by default, so the same
seed picks the same tasks again, the ones mini-swe-agent's `--shuffle` picks), then kept where the
regex matches from the start of the id (`re.match`), then sliced like a Python list. The chosen tasks
run in that order; the output folder still belongs to the whole tasks file.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from vtcode.core.user_regex import compile_user_regex
from vtcode.protocol.errors import UsageError

DEFAULT_SEED = 42


@dataclass(frozen=True)
class TaskChoice:
    """The choosing flags of `vtcode batch run`; the default takes every task in file order."""

    filter: str | None = None
    slice: str | None = None
    shuffle: bool = False
    seed: int = DEFAULT_SEED


def parse_slice(spec: str) -> slice:
    """`A:B` or `A:B:STEP` (each part an integer, or empty) as a slice; UsageError otherwise."""
    parts = spec.split(":")
    if not 2 <= len(parts) <= 3:
        raise UsageError(f"--slice {spec!r}: expected START:STOP or START:STOP:STEP, e.g. :50 or 10:20")
    try:
        bounds = [int(part) if part.strip() else None for part in parts]
    except ValueError:
        raise UsageError(
            f"--slice {spec!r}: each part is a whole number or empty, e.g. :50 or 10:20"
        ) from None
    if len(bounds) == 3 and bounds[2] == 0:
        raise UsageError(f"--slice {spec!r}: the step cannot be 0")
    return slice(*bounds)


def _pattern(spec: str) -> re.Pattern[str]:
    try:
        return compile_user_regex(spec)
    except re.error as exc:
        raise UsageError(f"--filter {spec!r}: not a valid regular expression ({exc})") from None


def choose(ids: Sequence[str], choice: TaskChoice) -> list[str]:
    """The ids `choice` takes, in the order they run; UsageError when a flag is malformed or none is left."""
    chosen = list(ids)
    if choice.shuffle:
        chosen.sort()
        random.Random(choice.seed).shuffle(chosen)
    if choice.filter is not None:
        pattern = _pattern(choice.filter)
        chosen = [task_id for task_id in chosen if pattern.match(task_id)]
    if choice.slice is not None:
        chosen = chosen[parse_slice(choice.slice)]
    if not chosen:
        raise UsageError(
            f"--filter/--slice left none of the {len(ids)} tasks to run",
            hint="the filter is a regular expression matched from the start of each task id",
        )
    return chosen
