"""Regular expressions a person or the model wrote, compiled without Python's FutureWarnings.

A pattern such as `[[:alpha:]]` (a POSIX class, a grep habit) compiles today with a FutureWarning
("Possible nested set") that Python prints on stderr with its own source line: over the TUI's screen,
or in `vtcode exec` as if vtcode had failed. The pattern means what Python's `re` means today; the
warning is about a future Python's syntax, which nobody reading it mid-session can act on.
"""

from __future__ import annotations

import re
import warnings


def compile_user_regex(pattern: str) -> re.Pattern[str]:
    """`re.compile(pattern)` without its FutureWarnings; raises `re.error` as it does."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(pattern)
