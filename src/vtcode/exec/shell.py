"""Which shell runs commands (also named in the environment context, so kept apart from spawning)."""

from __future__ import annotations

import os
import shutil


def default_shell(preferred: str | None) -> str:
    """The configured shell, else bash, else sh."""
    if preferred:
        found = shutil.which(preferred) if os.sep not in preferred else preferred
        if found:
            return found
    return "/bin/bash" if os.path.exists("/bin/bash") else "/bin/sh"
