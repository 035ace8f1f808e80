"""`recall_history`: search and page through the history earlier compactions archived.

After a compaction the model sees a summary; the full messages are in the session's `archive/`. The
runtime passes a reader of those segments (this package does no session storage of its own).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import msgspec

from vtcode.core.compaction.recall import DEFAULT_LIMIT, MAX_LIMIT, recall, render_page
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.messages import Message
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome

ArchiveReader = Callable[[], Sequence[tuple[int, Sequence[Message]]]]


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    query: Annotated[str | None, msgspec.Meta(description="Words to find, e.g. `migrations tabs`.")] = None
    segment: (
        Annotated[
            int, msgspec.Meta(ge=1, description="Only this archived segment (1 is the oldest compaction).")
        ]
        | None
    ) = None
    offset: Annotated[int, msgspec.Meta(ge=0, description="Skip this many matches.")] = 0
    limit: Annotated[
        int, msgspec.Meta(ge=1, le=MAX_LIMIT, description=f"Matches to return (default {DEFAULT_LIMIT}).")
    ] = DEFAULT_LIMIT


_SPEC = ToolSpec(
    name="recall_history",
    description=(
        "Search the earlier part of this session that compaction replaced by a summary: the full "
        "messages (user requests, tool results, your own replies) are archived in numbered segments, "
        "one per compaction. Give `query` (all words must match, case-insensitive) to find text, newest "
        "segment first; give `segment` without a query to read that segment in order. Page with "
        "`offset` and `limit`. Use it when the summary lacks a detail you need (an exact error, a "
        "file's earlier content, what the user said)."
    ),
    parameters=tool_parameters(_Args),
)


class RecallHistoryTool:
    """Finds archived (compacted-away) messages of the current session."""

    def __init__(self, archive: ArchiveReader) -> None:
        self._archive = archive

    spec = _SPEC
    # Reading the archive changes nothing.
    kind: ToolKind = "read"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The query, or the segment read."""
        query = arguments.get("query")
        if isinstance(query, str) and query:
            return CallDescription(display=query)
        segment = arguments.get("segment")
        return CallDescription(display=f"segment {segment}" if segment is not None else "archive")

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """A page of matching archived messages, or an error outcome the model can correct."""
        try:
            args = parse_arguments(arguments, _Args)
            segments = await asyncio.to_thread(self._archive)
        except VtcodeError as error:
            return ToolOutcome(error.message, is_error=True)
        if not segments:
            return ToolOutcome("nothing is archived yet: this session has not been compacted")
        if args.segment is not None and all(number != args.segment for number, _ in segments):
            known = ", ".join(str(number) for number, _ in segments)
            return ToolOutcome(f"no archived segment {args.segment} (there are: {known})", is_error=True)
        page = recall(
            segments,
            query=args.query or None,
            segment=args.segment,
            offset=args.offset,
            limit=args.limit,
        )
        return ToolOutcome(render_page(page))
