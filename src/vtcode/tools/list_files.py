"""`list_files`: the workspace's files, recursively, as git sees them (ignored files left out)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.file_set import compile_glob, visible_files
from vtcode.tools.file_tool import (
    FILE_TOOL_ERRORS,
    NamesOnePath,
    capped_listing,
    count_limit,
    failure,
    place,
)
from vtcode.tools.search_root import search_root

DEFAULT_MAX_RESULTS = 500
MAX_RESULTS_CEILING = 10_000


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    path: Annotated[
        str | None,
        msgspec.Meta(description="Directory to list, relative to the workspace root (default: the root)."),
    ] = None
    pattern: Annotated[
        str | None, msgspec.Meta(description="Glob the paths must match, e.g. `*.py` or `src/**/*.{ts,tsx}`.")
    ] = None
    max_results: (
        Annotated[int, count_limit("paths", DEFAULT_MAX_RESULTS, ceiling=MAX_RESULTS_CEILING)] | None
    ) = None


_SPEC = ToolSpec(
    name="list_files",
    description=(
        "List the files of the workspace recursively, one workspace-relative path per line, sorted. "
        "Files ignored by .gitignore and everything inside .git/ are left out. Narrow the listing "
        "with `path` (a directory) and `pattern`, a glob: `*.py` matches that file name at any "
        "depth, `src/**/*.ts` matches below src/, and braces work (`*.{ts,tsx}`). Use this to find "
        "files before reading them; use grep_files to search their contents."
    ),
    parameters=tool_parameters(_Args),
)


class ListFilesTool(NamesOnePath):
    """Lists non-ignored workspace files, optionally below a directory and matching a glob."""

    spec = _SPEC
    # Listing never changes the workspace.
    kind: ToolKind = "read"
    # The folder listed; the whole workspace when none is named.
    default_path = "."

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Return the sorted file list, or an error outcome the model can correct."""
        try:
            args = parse_arguments(arguments, _Args)
            walk, base = search_root(ctx, args.path or ".")
            paths = await visible_files(walk.root, walk.base, walk.git)
            if args.pattern:
                accepts = compile_glob(args.pattern, walk.base.display)
                paths = [path for path in paths if accepts(path)]
            paths = [walk.shown(path) for path in paths]
        except FILE_TOOL_ERRORS as exc:
            return failure("list_files", exc)
        if not paths:
            matching = f" matching {args.pattern!r}" if args.pattern else ""
            return ToolOutcome(
                content=f"No files in {place(base.display)}{matching}.", touched_paths=(base.display,)
            )
        content = capped_listing(
            paths,
            args.max_results,
            DEFAULT_MAX_RESULTS,
            ctx,
            lambda hidden: f"[{hidden} more not shown; narrow the listing with path or pattern]",
        )
        return ToolOutcome(content=content, touched_paths=(base.display,), extra={"total": len(paths)})
