"""What the commands take from the command line: the prompt text and the workspace folder."""

from __future__ import annotations

import sys
from pathlib import Path

from vtcode.protocol.errors import UsageError


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
