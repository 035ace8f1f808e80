"""`grep_files`: regex search over the workspace's non-ignored text files, as `path:line:text`."""

from __future__ import annotations

import asyncio
import re
import shutil
from collections.abc import AsyncIterator
from typing import Annotated, Any

import msgspec

from vtcode.core.user_regex import compile_user_regex
from vtcode.protocol.errors import ToolError
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome, path_call
from vtcode.tools.file_set import FileBatch, PathFilter, compile_glob, visible_file_batches
from vtcode.tools.file_tool import FILE_TOOL_ERRORS, capped_listing, count_limit, failure, place
from vtcode.tools.grep_engines import GrepMatch, python_search, ripgrep_search_batches
from vtcode.tools.output_limit import clip_utf8
from vtcode.tools.ripgrep_output import DATA_LIMIT
from vtcode.tools.search_root import search_root

DEFAULT_MAX_RESULTS = 200
MAX_RESULTS_CEILING = 5_000
# A minified line would otherwise spend the whole budget on one match.
MAX_LINE_BYTES = 400
# Files named in the note about files ripgrep had no memory for.
_NOTE_NAMES = 3


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    pattern: Annotated[
        str,
        msgspec.Meta(
            min_length=1, description="Regular expression to search for, e.g. `def \\w+_handler` or `TODO`."
        ),
    ]
    path: Annotated[
        str | None,
        msgspec.Meta(
            description="Directory or file to search, relative to the workspace root (default: the root)."
        ),
    ] = None
    glob: Annotated[
        str | None, msgspec.Meta(description="Only search files whose path matches this glob, e.g. `*.py`.")
    ] = None
    max_results: (
        Annotated[int, count_limit("matching lines", DEFAULT_MAX_RESULTS, ceiling=MAX_RESULTS_CEILING)] | None
    ) = None


_SPEC = ToolSpec(
    name="grep_files",
    description=(
        "Search the contents of the workspace's files with a regular expression (Python `re` "
        "syntax, matched against each line separately; prefix `(?i)` for case-insensitive). "
        "Returns one `path:line:text` per matching line, sorted by path then line number. Files "
        "ignored by .gitignore, .git/ and binary files are skipped. Narrow the search with `path` "
        "(a directory or a single file) and `glob` (e.g. `*.py`, `src/**/*.{ts,tsx}`)."
    ),
    parameters=tool_parameters(_Args),
)


class GrepFilesTool:
    """Regex search over workspace files with ripgrep, or a Python scan that gives the same lines."""

    def __init__(self, *, ripgrep: str | None = None, use_ripgrep: bool = True) -> None:
        # `ripgrep` pins an executable; otherwise `rg` is looked up on PATH at each call.
        self._ripgrep = ripgrep
        self._use_ripgrep = use_ripgrep

    spec = _SPEC
    # Searching never changes the workspace.
    kind: ToolKind = "read"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The pattern and the folder searched."""
        where = path_call(arguments, "path", default=".")
        pattern = arguments.get("pattern")
        shown = f"{pattern} in {where.display}" if isinstance(pattern, str) else where.display
        return CallDescription(display=shown, paths=where.paths)

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Return the matching lines, or an error outcome the model can correct."""
        try:
            args = parse_arguments(arguments, _Args)
            regex = _compile(args.pattern)
            walk, base = search_root(ctx, args.path or ".")
            root = walk.root
            batches = await visible_file_batches(root, walk.base, git=walk.git)
            accepts = compile_glob(args.glob, walk.base.display) if args.glob else None
            # Collected while ripgrep already searches the first batches, for the Python engine.
            files: list[str] = []
            searched = _collect(batches, accepts, files)
            matches: list[GrepMatch] | None = None
            # Files the Python scan searched because ripgrep ran out of memory on them.
            rescanned: list[str] = []
            rg = self._ripgrep_executable()
            if rg is None:
                async for _ in searched:
                    pass
            else:
                matches = await ripgrep_search_batches(rg, root, searched, args.pattern, rescanned=rescanned)
        except FILE_TOOL_ERRORS as exc:
            return failure("grep_files", exc)
        engine = "ripgrep"
        if matches is None:
            matches = await asyncio.to_thread(python_search, root, files, regex)
            engine = "python"
        extra: dict[str, Any] = {"engine": engine, "matches": len(matches)}
        if not matches:
            content = f"No matches for {args.pattern!r} in {place(base.display)}."
            return ToolOutcome(
                content=_with_note(content, rescanned), touched_paths=(base.display,), extra=extra
            )
        content = capped_listing(
            [format_match(msgspec.structs.replace(match, path=walk.shown(match.path))) for match in matches],
            args.max_results,
            DEFAULT_MAX_RESULTS,
            ctx,
            lambda hidden: (
                f"[{hidden} more matches not shown; narrow the search with path, glob "
                "or a more specific pattern]"
            ),
        )
        return ToolOutcome(content=_with_note(content, rescanned), touched_paths=(base.display,), extra=extra)

    def _ripgrep_executable(self) -> str | None:
        if not self._use_ripgrep:
            return None
        return self._ripgrep or shutil.which("rg")


async def _collect(
    batches: AsyncIterator[FileBatch], accepts: PathFilter | None, files: list[str]
) -> AsyncIterator[FileBatch]:
    """Pass on the batches narrowed by the glob, appending their files to `files` on the way."""
    async for batch in batches:
        kept = batch if accepts is None else batch.narrowed(accepts)
        if kept.files:
            files.extend(kept.files)
            yield kept


def _with_note(content: str, rescanned: list[str]) -> str:
    """`content`, and a closing line naming the files ripgrep had no memory for, if any."""
    if not rescanned:
        return content
    names = ", ".join(sorted(rescanned)[:_NOTE_NAMES])
    if len(rescanned) > _NOTE_NAMES:
        names += f" and {len(rescanned) - _NOTE_NAMES} more"
    return (
        f"{content}\n[ripgrep reached its {DATA_LIMIT >> 20} MB memory limit; searched with the built-in "
        f"scan instead: {clip_utf8(names, MAX_LINE_BYTES)}]"
    )


def format_match(match: GrepMatch) -> str:
    """The `path:line:text` line a model sees for one match, with very long lines cut."""
    return f"{match.path}:{match.line}:{clip_utf8(match.text, MAX_LINE_BYTES)}"


def _compile(pattern: str) -> re.Pattern[str]:
    try:
        return compile_user_regex(pattern)
    except re.error as exc:
        raise ToolError(
            f"invalid regular expression {pattern!r}: {exc} (Python `re` syntax; "
            "escape literal characters such as ( [ . * + ? with a backslash)"
        ) from None
