"""The folders skills and custom commands come from, and a cheap check that any of them exists.

Kept apart from the loader so a session in a workspace without any of these folders pays a few `stat`
calls and imports nothing else (`vtcode exec` start-up must not grow for users without skills).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from vtcode.instructions.options import find_project_root

ArgumentStyle = Literal["claude", "codex", "opencode", "gemini"]
Scope = Literal["project", "user"]

SKILL_FOLDERS = (".vtcode/skills", ".agents/skills", ".claude/skills")
COMMAND_FOLDERS: tuple[tuple[str, ArgumentStyle, str], ...] = (
    (".vtcode/commands", "claude", ".md"),
    (".claude/commands", "claude", ".md"),
    (".gemini/commands", "gemini", ".toml"),
    (".opencode/commands", "opencode", ".md"),
)


@dataclass(frozen=True)
class DefinitionRoots:
    """Where to look: the working folder, its project root, vtcode's home, the user's home, and the
    extra skill folders of `skills.paths` (user file only)."""

    workspace: Path
    vtcode_home: Path
    user_home: Path | None = None
    project_root: Path | None = None
    extra_skill_paths: tuple[Path, ...] = ()

    @functools.cached_property
    def project_dirs(self) -> tuple[Path, ...]:
        """The working folder and each parent up to the project root, nearest first: resolved once
        (every `realpath` is a `stat` per path component), however many sources ask."""
        start = Path(os.path.realpath(self.workspace))
        top = Path(os.path.realpath(self.project_root)) if self.project_root else find_project_root(start)
        dirs = [start]
        current = start
        while current != top and top in current.parents:
            current = current.parent
            dirs.append(current)
        return tuple(dirs)


def definition_roots(
    workspace: Path, vtcode_home: Path, user_home: Path | None, skill_paths: tuple[str, ...] = ()
) -> DefinitionRoots:
    """The roots of a session; `skill_paths` (`skills.paths`) may start with `~`."""
    extra = tuple(
        Path(str(user_home) + p[1:]) if p.startswith("~") and user_home is not None else Path(p)
        for p in skill_paths
    )
    return DefinitionRoots(
        workspace=workspace, vtcode_home=vtcode_home, user_home=user_home, extra_skill_paths=extra
    )


def skill_sources(roots: DefinitionRoots) -> list[tuple[Path, Scope, str]]:
    """Skill folders in precedence order: project (nearest first), then the user's."""
    sources: list[tuple[Path, Scope, str]] = [
        (base / folder, "project", folder) for base in roots.project_dirs for folder in SKILL_FOLDERS
    ]
    sources.append((roots.vtcode_home / "skills", "user", "$VTCODE_HOME/skills"))
    home = roots.user_home
    if home is not None:
        sources.append((home / ".agents/skills", "user", "~/.agents/skills"))
        sources.append((home / ".claude/skills", "user", "~/.claude/skills"))
    sources += [(path, "user", "skills.paths") for path in roots.extra_skill_paths]
    return sources


def command_sources(roots: DefinitionRoots) -> list[tuple[Path, Scope, str, ArgumentStyle, str]]:
    """Command folders in precedence order, with their argument style and file extension."""
    sources: list[tuple[Path, Scope, str, ArgumentStyle, str]] = [
        (base / folder, "project", folder, style, ext)
        for base in roots.project_dirs
        for folder, style, ext in COMMAND_FOLDERS
    ]
    sources.append((roots.vtcode_home / "commands", "user", "$VTCODE_HOME/commands", "claude", ".md"))
    home = roots.user_home
    if home is not None:
        sources += [
            (home / ".claude/commands", "user", "~/.claude/commands", "claude", ".md"),
            (home / ".gemini/commands", "user", "~/.gemini/commands", "gemini", ".toml"),
            (home / ".codex/prompts", "user", "~/.codex/prompts", "codex", ".md"),
            (home / ".config/opencode/commands", "user", "~/.config/opencode/commands", "opencode", ".md"),
        ]
    return sources


def any_present(roots: DefinitionRoots) -> bool:
    """Whether any skill or command folder exists (one `stat` each)."""
    folders = [s[0] for s in skill_sources(roots)] + [s[0] for s in command_sources(roots)]
    return any(os.path.isdir(folder) for folder in folders)  # `os.path`: half the cost of `Path.is_dir`
