"""The `system.md` and `append-system.md` prompt layers (SPEC section 4; reference section 4).

| layer    | workspace                              | user                                   |
| -------- | -------------------------------------- | -------------------------------------- |
| override | `<workspace>/.vtcode/prompts/system.md` | `$VTCODE_HOME/prompts/system.md`       |
| append   | `<workspace>/.vtcode/prompts/append-system.md` | `$VTCODE_HOME/prompts/append-system.md` |

The workspace override wins over the user one; a whitespace-only file counts as absent, so a blank
workspace `system.md` falls back to the user's (the original let it mask the user's file). Appends
apply user first, then workspace. A file that cannot be read is absent, with a diagnostic. The
workspace layers come with the repository, so they are read as AGENTS.md is: a layer whose real path
leaves the project or lies in vtcode's or the user's configuration (a committed symlink to
`~/.config/gh/hosts.yml`) is ignored with a diagnostic, never sent to the provider.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from vtcode.core.instructions.model import Diagnostic
from vtcode.instructions.options import InstructionOptions, is_within, real
from vtcode.instructions.reader import SourceReader, Unreadable

SYSTEM_NAME = "system.md"
APPEND_NAME = "append-system.md"


class PromptLayers(NamedTuple):
    """The override text (None: use the profile), the append texts in order, and read problems."""

    override: str | None
    appends: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]


def read_prompt_layers(
    workspace: Path, vtcode_home: Path, *, reader: SourceReader | None = None, user_home: Path | None = None
) -> PromptLayers:
    """Read the four layer files once (the static prompt is computed once per session)."""
    reader = reader or SourceReader()
    rules = InstructionOptions.for_workspace(workspace, vtcode_home=vtcode_home, user_home=user_home)
    diagnostics: list[Diagnostic] = []
    workspace_dir = workspace / ".vtcode" / "prompts"
    user_dir = vtcode_home / "prompts"
    user_dir_real = real(user_dir)

    def text(path: Path, shown: str, *, from_workspace: bool = False) -> str | None:
        if from_workspace and os.path.lexists(path) and not rules.admits_workspace_file(real(path)):
            if is_within(real(path), user_dir_real):
                return None  # `.vtcode` is `$VTCODE_HOME` itself: the user's own layer, read as such
            reason = f"links outside the project or into a configuration folder ({real(path).as_posix()})"
            diagnostics.append(Diagnostic(shown, "error", f"{reason}; prompt layer ignored"))
            return None
        result = reader.read(path)
        if isinstance(result, Unreadable):
            diagnostics.append(Diagnostic(shown, "error", f"{result.reason}; prompt layer ignored"))
            return None
        return result if result is not None and result.strip() else None

    override = text(workspace_dir / SYSTEM_NAME, ".vtcode/prompts/system.md", from_workspace=True)
    if override is None:
        override = text(user_dir / SYSTEM_NAME, f"{user_dir / SYSTEM_NAME}")
    appends = [
        text(user_dir / APPEND_NAME, f"{user_dir / APPEND_NAME}"),
        text(workspace_dir / APPEND_NAME, ".vtcode/prompts/append-system.md", from_workspace=True),
    ]
    return PromptLayers(override, tuple(a for a in appends if a is not None), tuple(diagnostics))
