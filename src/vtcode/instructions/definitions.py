"""Finding skills and custom commands on disk: every source folder, precedence, shadowing, bounds.

Project folders are searched from the working folder up to the project root (nearest wins), then the
user's; within one folder `.vtcode` beats `.agents` beats `.claude` (skills) and `.vtcode` beats
`.claude`, `.gemini`, `.opencode` (commands). The first definition of a name wins; later ones are
reported as shadowed. The walk is bounded (depth, folder count, file size), skips `.git` and
`node_modules`, and follows a symlinked folder only once, so a link loop ends. A file that cannot be
used is a diagnostic naming it; nothing here raises.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vtcode.core.definitions.model import (
    ArgumentStyle,
    Definition,
    Loaded,
    Scope,
    load_markdown_command,
    load_skill,
    load_toml_command,
)
from vtcode.core.instructions.model import Diagnostic
from vtcode.instructions.options import find_project_root

MAX_DEPTH = 6
MAX_DIRS = 2000
MAX_FILE_BYTES = 256 * 1024
SKILL_FILE = "SKILL.md"
_SKIPPED = frozenset({".git", "node_modules"})

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


@dataclass
class Discovery:
    """Every usable definition by name (winners only) and what was wrong or shadowed."""

    skills: dict[str, Definition] = field(default_factory=dict)
    commands: dict[str, Definition] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    dirs_seen: int = 0

    def everything(self) -> list[Definition]:
        """Skills then commands, each sorted by name."""
        return [*sorted(self.skills.values(), key=_name), *sorted(self.commands.values(), key=_name)]


def _name(definition: Definition) -> str:
    return definition.name


def project_dirs(roots: DefinitionRoots) -> list[Path]:
    """The working folder and each parent up to the project root, nearest first."""
    start = Path(os.path.realpath(roots.workspace))
    top = Path(os.path.realpath(roots.project_root or find_project_root(start)))
    dirs = [start]
    current = start
    while current != top and top in current.parents:
        current = current.parent
        dirs.append(current)
    return dirs


def discover(roots: DefinitionRoots) -> Discovery:
    """Every skill and command of `roots` (blocking I/O; a few `stat`s when no folder exists)."""
    found = Discovery()
    home = roots.user_home
    skill_sources: list[tuple[Path, Scope, str]] = [
        (base / folder, "project", folder) for base in project_dirs(roots) for folder in SKILL_FOLDERS
    ]
    skill_sources.append((roots.vtcode_home / "skills", "user", "$VTCODE_HOME/skills"))
    if home is not None:
        skill_sources += [(home / ".agents/skills", "user", "~/.agents/skills")]
        skill_sources += [(home / ".claude/skills", "user", "~/.claude/skills")]
    skill_sources += [(path, "user", "skills.paths") for path in roots.extra_skill_paths]
    for folder, scope, source in skill_sources:
        for skill_file in _skill_files(folder, found):
            _add(found.skills, found, _read_skill(skill_file, scope, source))
    command_sources: list[tuple[Path, Scope, str, ArgumentStyle, str]] = [
        (base / folder, "project", folder, style, ext)
        for base in project_dirs(roots)
        for folder, style, ext in COMMAND_FOLDERS
    ]
    command_sources.append((roots.vtcode_home / "commands", "user", "$VTCODE_HOME/commands", "claude", ".md"))
    if home is not None:
        command_sources += [
            (home / ".claude/commands", "user", "~/.claude/commands", "claude", ".md"),
            (home / ".gemini/commands", "user", "~/.gemini/commands", "gemini", ".toml"),
            (home / ".codex/prompts", "user", "~/.codex/prompts", "codex", ".md"),
            (home / ".config/opencode/commands", "user", "~/.config/opencode/commands", "opencode", ".md"),
        ]
    for folder, scope, source, style, ext in command_sources:
        for name, command_file in _command_files(folder, ext, found):
            loaded = _read_command(command_file, name, scope, source, style)
            command = loaded[0].definition
            if command is not None and command.name in found.skills:
                # Claude Code's rule: a skill wins over a command of the same name.
                found.diagnostics.append(_shadowed(command, found.skills[command.name]))
                continue
            _add(found.commands, found, loaded)
    return found


def _add(table: dict[str, Definition], found: Discovery, loaded: tuple[Loaded, str]) -> None:
    result, path = loaded
    for problem in result.errors:
        found.diagnostics.append(Diagnostic(path, "error", problem))
    for problem in result.problems:
        found.diagnostics.append(Diagnostic(path, "warning", problem))
    definition = result.definition
    if definition is None:
        return
    winner = table.get(definition.name)
    if winner is not None:
        found.diagnostics.append(_shadowed(definition, winner))
        return
    table[definition.name] = definition


def _shadowed(loser: Definition, winner: Definition) -> Diagnostic:
    return Diagnostic(
        loser.path, "warning", f"{loser.kind} `{loser.name}` is shadowed by {winner.kind} {winner.path}"
    )


def _skill_files(root: Path, found: Discovery) -> Iterator[Path]:
    """`SKILL.md` files below `root` (a folder holding one is not searched further)."""
    if not root.is_dir():
        return
    for folder, files in _walk(root, found):
        if SKILL_FILE in files:
            yield folder / SKILL_FILE


def _command_files(root: Path, ext: str, found: Discovery) -> Iterator[tuple[str, Path]]:
    """(name, file) of every command below `root`; subfolders namespace the name with `:`."""
    if not root.is_dir():
        return
    for folder, files in _walk(root, found):
        for file_name in sorted(files):
            if file_name.endswith(ext) and not file_name.startswith("."):
                relative = (folder / file_name).relative_to(root).with_suffix("")
                yield ":".join(relative.parts), folder / file_name


def _walk(root: Path, found: Discovery) -> Iterator[tuple[Path, list[str]]]:
    """Folders below `root` (itself first) with their file names, sorted, bounded, loop-safe."""
    seen: set[str] = set()
    stack: list[tuple[Path, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        real = os.path.realpath(folder)
        if real in seen:
            found.diagnostics.append(
                Diagnostic(str(folder), "warning", "a symlink loop: folder visited already")
            )
            continue
        seen.add(real)
        found.dirs_seen += 1
        if found.dirs_seen > MAX_DIRS:
            if found.dirs_seen == MAX_DIRS + 1:
                found.diagnostics.append(
                    Diagnostic(str(folder), "warning", f"more than {MAX_DIRS} folders: the rest is skipped")
                )
            return
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as exc:
            found.diagnostics.append(Diagnostic(str(folder), "error", f"cannot be listed ({exc.strerror})"))
            continue
        files = [e.name for e in entries if _is_file(e)]
        yield folder, files
        if SKILL_FILE in files and folder != root:
            continue
        if depth >= MAX_DEPTH:
            continue
        subfolders = [e for e in entries if e.name not in _SKIPPED and _is_dir(e)]
        stack.extend((Path(e.path), depth + 1) for e in reversed(subfolders))


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def read_text(path: Path) -> tuple[str | None, str | None]:
    """(text, None) or (None, why it cannot be used): too large, binary, not UTF-8, unreadable."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, f"too large ({size} bytes; the limit is {MAX_FILE_BYTES})"
        data = path.read_bytes()
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    if b"\0" in data[:8192]:
        return None, "a binary file, not markdown"
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, "not UTF-8 text"


def _read_skill(skill_file: Path, scope: Scope, source: str) -> tuple[Loaded, str]:
    path = str(skill_file)
    text, problem = read_text(skill_file)
    if text is None:
        return Loaded(None, (), (problem or "unreadable",)), path
    folder = skill_file.parent
    loaded = load_skill(
        text, path=path, folder=str(folder), folder_name=folder.name, scope=scope, source=source
    )
    return loaded, path


def _read_command(
    command_file: Path, name: str, scope: Scope, source: str, style: ArgumentStyle
) -> tuple[Loaded, str]:
    path = str(command_file)
    text, problem = read_text(command_file)
    if text is None:
        return Loaded(None, (), (problem or "unreadable",)), path
    folder = str(command_file.parent)
    if style == "gemini":
        return load_toml_command(text, name=name, path=path, folder=folder, scope=scope, source=source), path
    loaded = load_markdown_command(
        text, name=name, path=path, folder=folder, scope=scope, source=source, style=style
    )
    return loaded, path


def resources(folder: Path, limit: int = 50) -> tuple[list[str], int]:
    """Up to `limit` files below a skill folder (relative, sorted, `SKILL.md` left out) and the total."""
    listed: list[str] = []
    total = 0
    found = Discovery()
    for current, files in _walk(folder, found):
        for file_name in files:
            relative = (current / file_name).relative_to(folder).as_posix()
            if relative == SKILL_FILE:
                continue
            total += 1
            if len(listed) < limit:
                listed.append(relative)
    return sorted(listed), total


def definition_sources(roots: DefinitionRoots) -> Sequence[Path]:
    """Every folder that may hold definitions (for `vtcode skills list` to say where it looked)."""
    dirs = project_dirs(roots)
    paths = [base / folder for base in dirs for folder in SKILL_FOLDERS]
    paths.append(roots.vtcode_home / "skills")
    return paths
