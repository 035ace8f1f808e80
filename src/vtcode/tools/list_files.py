"""`list_files`: the workspace's files, recursively, as git sees them (ignored files left out)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from vtcode.protocol.errors import ToolError
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome, path_call
from vtcode.tools.file_set import compile_glob, visible_files
from vtcode.tools.output_limit import fit_lines
from vtcode.tools.workspace import resolve, workspace_root

DEFAULT_MAX_RESULTS = 500
MAX_RESULTS_CEILING = 10_000

_SPEC = ToolSpec(
    name="list_files",
    description=(
        "List the files of the workspace recursively, one workspace-relative path per line, sorted. "
        "Files ignored by .gitignore and everything inside .git/ are left out. Narrow the listing "
        "with `path` (a directory) and `pattern`, a glob: `*.py` matches that file name at any "
        "depth, `src/**/*.ts` matches below src/, and braces work (`*.{ts,tsx}`). Use this to find "
        "files before reading them; use grep_files to search their contents."
    ),
    parameters={
        "type": "object",
        "properties": {
            "path": {
                "type": "string",
                "description": "Directory to list, relative to the workspace root (default: the root).",
            },
            "pattern": {
                "type": "string",
                "description": "Glob the paths must match, e.g. `*.py` or `src/**/*.{ts,tsx}`.",
            },
            "max_results": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_RESULTS_CEILING,
                "description": f"Maximum number of paths to return (default {DEFAULT_MAX_RESULTS}).",
            },
        },
        "required": [],
        "additionalProperties": False,
    },
)


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    path: str | None = None
    pattern: str | None = None
    max_results: Annotated[int, msgspec.Meta(ge=1, le=MAX_RESULTS_CEILING)] | None = None


class ListFilesTool:
    """Lists non-ignored workspace files, optionally below a directory and matching a glob."""

    @property
    def spec(self) -> ToolSpec:
        """Name, description and JSON Schema parameters."""
        return _SPEC

    @property
    def kind(self) -> ToolKind:
        """Listing never changes the workspace."""
        return "read"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The folder listed."""
        return path_call(arguments, "path", default=".")

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Return the sorted file list, or an error outcome the model can correct."""
        try:
            args = parse_arguments(arguments, _Args)
            root = workspace_root(ctx.workspace)
            base = resolve(ctx.workspace, args.path or ".")
            paths = await visible_files(root, base, ctx.git)
            if args.pattern:
                accepts = compile_glob(args.pattern, base.display)
                paths = [path for path in paths if accepts(path)]
        except ToolError as exc:
            return ToolOutcome(content=f"list_files: {exc.message}", is_error=True)
        except OSError as exc:
            # The workspace changing under the call (a file removed, a permission) is data too.
            return ToolOutcome(content=f"list_files: {exc}", is_error=True)
        if not paths:
            where = "the workspace" if base.display == "." else base.display
            matching = f" matching {args.pattern!r}" if args.pattern else ""
            return ToolOutcome(content=f"No files in {where}{matching}.", touched_paths=(base.display,))
        content = fit_lines(
            paths,
            max_items=args.max_results or DEFAULT_MAX_RESULTS,
            max_bytes=ctx.max_output_bytes,
            more_note=lambda hidden: f"[{hidden} more not shown; narrow the listing with path or pattern]",
        )
        return ToolOutcome(content=content, touched_paths=(base.display,), extra={"total": len(paths)})
