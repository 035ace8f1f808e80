"""What the commands take from the command line: the prompt text and the workspace folder."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Literal

from vtcode.protocol.errors import UsageError

StdinKind = Literal["pipe", "file", "none"]


def stdin_kind(fd: int = 0) -> StdinKind:
    """Whether `fd` is something to read: a pipe or socket, a regular file, or neither (tty, /dev/null)."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return "none"
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return "pipe"
    return "file" if stat.S_ISREG(mode) else "none"


def read_prompt(value: str | None) -> str:
    """The prompt argument, or stdin for `-`."""
    if value is None:
        raise UsageError(
            "exec needs a PROMPT",
            hint="vtcode exec 'fix the failing test'  (or pipe it: echo task | vtcode exec)",
        )
    if value == "-":
        # Bytes, decoded leniently: a stray invalid byte in piped input must not end the run.
        text = sys.stdin.buffer.read().decode("utf-8", "replace")
    else:
        # argv carries undecodable bytes as lone surrogates, which nothing downstream can encode.
        text = value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if not text.strip():
        raise UsageError("the prompt is empty")
    return text


def workspace_dir(value: str | None) -> Path:
    """The workspace as an absolute path; it must be an existing directory."""
    path = Path(value).expanduser() if value else Path.cwd()
    path = path.resolve()
    if not path.is_dir():
        raise UsageError(f"workspace {path} is not a directory")
    return path
