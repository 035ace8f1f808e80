"""What the file tools share: path and count arguments, the failure the model sees, capped listings.

`read_file`, `write_file`, `list_files`, `grep_files`, `recall_history` and `apply_patch` each parse
their arguments, clamp a count to a default and a ceiling, and turn a refused call or a workspace that
changed under it into an error outcome; the wording lives here once so every tool says it the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

import msgspec

from vtcode.protocol.errors import ToolError
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome, path_call
from vtcode.tools.output_limit import fit_lines

# What a file tool's call can fail with: a refusal the tool explains, or the workspace changing under it
# (a file removed, a permission): both are data for the model, never a traceback.
FILE_TOOL_ERRORS = (ToolError, OSError)


class NamesOnePath:
    """A file tool whose call names one path, in its `path` argument (`default_path` when absent)."""

    default_path: str | None = None

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The path the call names, as named."""
        return path_call(arguments, "path", default=self.default_path)


def failure(tool: str, exc: ToolError | OSError) -> ToolOutcome:
    """The error outcome for a failed call of `tool`, prefixed with its name."""
    detail = exc.message if isinstance(exc, ToolError) else str(exc)
    return ToolOutcome(content=f"{tool}: {detail}", is_error=True)


# The `path` argument of a tool that reads or writes one file.
FilePath = Annotated[
    str, msgspec.Meta(description="File path relative to the workspace root (or absolute inside it).")
]


def count_limit(noun: str, default: int, *, ceiling: int | None = None) -> msgspec.Meta:
    """The check and description of an optional "at most this many `noun`" argument."""
    return msgspec.Meta(
        ge=1, le=ceiling, description=f"Maximum number of {noun} to return (default {default})."
    )


def place(display: str) -> str:
    """How a message names a searched folder: the root is "the workspace"."""
    return "the workspace" if display == "." else display


def capped_listing(
    lines: Sequence[str], limit: int | None, default: int, ctx: ToolContext, more_note: Callable[[int], str]
) -> str:
    """`lines` cut to the asked count (or `default`) and the output budget; a note counts the rest."""
    return fit_lines(lines, max_items=limit or default, max_bytes=ctx.max_output_bytes, more_note=more_note)
