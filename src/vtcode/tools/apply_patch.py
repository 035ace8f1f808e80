"""`apply_patch`: add, update, move and delete workspace files from one patch, all or nothing.

The whole patch is planned in memory first (every path confined, every hunk located); only when
all of it applies are the files written, through `file_transaction`, which undoes a half-done write.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import msgspec

from vtcode.protocol.errors import ToolError
from vtcode.protocol.events import FileChange
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome
from vtcode.tools.file_tool import FILE_TOOL_ERRORS, failure

_DESCRIPTION = """\
Edit workspace files with a patch. The patch is applied completely or not at all. Format:

*** Begin Patch
*** Add File: path/new.py
+first line of the new file
+second line
*** Update File: path/existing.py
@@ def function_containing_the_change():
 context line (unchanged, starts with a space)
-line to remove
+line to add
 context line
*** Delete File: path/obsolete.py
*** End Patch

Rules:
- Paths are relative to the workspace root. Never use line numbers.
- In an Update File section, every line starts with ' ' (context), '-' (remove) or '+' (add). \
Give about 3 lines of context before and after each change, copied exactly from the file.
- Start each hunk with '@@' or with '@@ <a line of the file>' (such as a class or def line) when \
the context alone could match in more than one place; hunks must be in file order.
- To rename, put '*** Move to: new/path' directly after '*** Update File: old/path'.
- '*** End of File' after a hunk's last line anchors the hunk at the end of the file.
- Read the file first; if a hunk does not match, re-read it and retry with the current lines."""


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    patch: Annotated[
        str, msgspec.Meta(description="The whole patch, from '*** Begin Patch' to '*** End Patch'.")
    ]


_SPEC = ToolSpec(name="apply_patch", description=_DESCRIPTION, parameters=tool_parameters(_Args))


class ApplyPatchTool:
    """Applies a Codex-style patch envelope to workspace files atomically."""

    spec = _SPEC
    # Patching changes the workspace.
    kind: ToolKind = "edit"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The files the patch names."""
        from vtcode.tools.patch_parse import patch_paths

        patch = arguments.get("patch") or arguments.get("input")
        paths = patch_paths(patch) if isinstance(patch, str) else ()
        return CallDescription(display=", ".join(paths) or "patch", paths=paths)

    def preview(
        self, arguments: dict[str, Any], workspace: Path, extra_roots: tuple[Path, ...] = ()
    ) -> tuple[FileChange, ...]:
        """The files and diffs the patch would change (planned in memory, nothing written)."""
        from vtcode.tools.patch_parse import parse_patch
        from vtcode.tools.patch_plan import plan_patch

        try:
            args = parse_arguments(arguments, _Args)
            return tuple(plan_patch(workspace, parse_patch(args.patch), extra_roots).changes)
        except (ToolError, OSError):
            # The call fails the same way when it runs; the model is told why then.
            return ()

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Apply the patch and report the changes, or change nothing and return an error outcome."""
        # The parser, the matcher and the transaction load at the first patch (start-up time).
        from vtcode.tools.file_transaction import commit
        from vtcode.tools.patch_parse import parse_patch
        from vtcode.tools.patch_plan import plan_patch

        try:
            args = parse_arguments(arguments, _Args)
            patch = parse_patch(args.patch)
            plan = await asyncio.to_thread(plan_patch, ctx.workspace, patch, ctx.extra_roots)
            # An added folder's journal names the session's workspace: resuming there rolls it back.
            added = plan.home if plan.root != plan.home else None
            await asyncio.to_thread(
                commit, plan.root, plan.edits(), journal_dir=ctx.journal_dir, session_workspace=added
            )
        except FILE_TOOL_ERRORS as exc:
            return failure("apply_patch", exc)
        return ToolOutcome(
            content="Success. Updated: " + ", ".join(plan.summary),
            touched_paths=tuple(dict.fromkeys(plan.touched)),
            changes=tuple(plan.changes),
        )
