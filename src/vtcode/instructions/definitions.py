"""Finding skills and custom commands on disk: every source folder, precedence, shadowing, bounds.

Project folders are searched from the working folder up to the project root (nearest wins), then the
user's; within one folder `.vtcode` beats `.agents` beats `.claude` (skills) and `.vtcode` beats
`.claude`, `.gemini`, `.opencode` (commands). The first definition of a name wins; later ones are
reported as shadowed. The walk is bounded (depth, folder count, file size), skips `.git` and
`node_modules`, and follows a symlinked folder only once, so a link loop ends. A file that cannot be
used is a diagnostic naming it; nothing here raises.

At start-up a skill is read only as far as its frontmatter (the catalog needs its name, description
and the fields that decide where it is offered); its body is read when it is used. The checks that
skip a file (too large, binary, not UTF-8 up to the end of the frontmatter, bad frontmatter) are made
then as before; only text that is not UTF-8 in the body of a `SKILL.md` over 8 KB shows when the skill
is used (and in `vtcode skills list`, which reads whole files).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import msgspec

from vtcode.core.definitions.frontmatter import frontmatter_body
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
from vtcode.core.instructions.text import split_frontmatter
from vtcode.instructions.definition_folders import DefinitionRoots, command_sources, skill_sources
from vtcode.instructions.skill_cache import Stamp, cache_for, file_stamp

MAX_DEPTH = 6
MAX_DIRS = 2000
MAX_FILE_BYTES = 256 * 1024
HEAD_BYTES = 8192
"""What a skill's first read takes: its frontmatter, and the part checked for a binary file."""
SKILL_FILE = "SKILL.md"
CANNOT_READ = "cannot be read"
"""How the problem of a file the OS would not read begins: a failure of the moment, not the file's."""
_SKIPPED = frozenset({".git", "node_modules"})


class Discovery(msgspec.Struct):
    """Every usable definition by name (winners only) and what was wrong or shadowed."""

    skills: dict[str, Definition] = msgspec.field(default_factory=dict)
    commands: dict[str, Definition] = msgspec.field(default_factory=dict)
    diagnostics: list[Diagnostic] = msgspec.field(default_factory=list)
    dirs_seen: int = 0

    def everything(self) -> list[Definition]:
        """Skills then commands, each sorted by name."""
        return [*sorted(self.skills.values(), key=_name), *sorted(self.commands.values(), key=_name)]


def _name(definition: Definition) -> str:
    return definition.name


def discover(roots: DefinitionRoots) -> Discovery:
    """Every skill and command of `roots` (blocking I/O; a few `stat`s when no folder exists)."""
    found = discover_skills(roots)
    discover_commands(roots, found)
    return found


def discover_skills(roots: DefinitionRoots, *, bodies: bool = False) -> Discovery:
    """The skills of `roots` only (what the catalog needs at start-up). Without `bodies` each
    `SKILL.md` is read as far as its frontmatter, or not at all when `instructions.skill_cache` holds
    it unchanged, and the body is read on use (`definition_body`)."""
    found = Discovery()
    if bodies:
        for folder, scope, source in skill_sources(roots):
            for skill_file in _skill_files(folder, found):
                _add(found.skills, found, _read_skill(skill_file, scope, source, True))
        return found
    cache = cache_for(roots.vtcode_home, roots.project_dirs[0])
    stamps: dict[str, Stamp] = {}
    for folder, scope, source in skill_sources(roots):
        for skill_file in _skill_files(folder, found, stamps):
            stamp = stamps.get(skill_file)
            key = f"{scope}\n{source}\n{skill_file}"
            loaded = None
            if stamp is not None:
                loaded = cache.get(key, stamp)
            if loaded is None:
                loaded = _read_skill(skill_file, scope, source, False)[0]
                # A read the OS refused (too many open files, EACCES from a policy, EIO) says nothing
                # about the file, whose stamp may never change: it is read again next time.
                if stamp is not None and not any(e.startswith(CANNOT_READ) for e in loaded.errors):
                    cache.put(key, stamp, loaded)
            _add(found.skills, found, (loaded, skill_file))
    cache.save()
    return found


def definition_body(definition: Definition) -> tuple[str | None, str | None]:
    """(body, None), or (None, why the file cannot be used now): a skill's body is read on use."""
    if definition.body is not None:
        return definition.body, None
    text, problem = read_text(definition.path)
    if text is None:
        return None, problem
    return frontmatter_body(text), None


def discover_commands(roots: DefinitionRoots, found: Discovery) -> None:
    """Add the commands of `roots` to `found` (a skill of the same name wins)."""
    for folder, scope, source, style, ext in command_sources(roots):
        for name, command_file in _command_files(folder, ext, found):
            loaded = _read_command(command_file, name, scope, source, style)
            command = loaded[0].definition
            if command is not None and command.name in found.skills:
                # Claude Code's rule: a skill wins over a command of the same name.
                found.diagnostics.append(_shadowed(command, found.skills[command.name]))
                continue
            _add(found.commands, found, loaded)


def _add(table: dict[str, Definition], found: Discovery, loaded: tuple[Loaded, str]) -> None:
    result, path = loaded
    for problem in result.errors:
        found.diagnostics.append(Diagnostic(path, "error", problem))
    for problem in result.problems:
        found.diagnostics.append(Diagnostic(path, "warning", problem))
    for note in result.notes:
        found.diagnostics.append(Diagnostic(path, "info", note))
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


def _skill_files(root: Path, found: Discovery, stamps: dict[str, Stamp] | None = None) -> Iterator[str]:
    """`SKILL.md` files below `root` (a folder holding one is not searched further); `stamps` gets the
    stamp of each file the walk took from a `stat` (not a listing)."""
    if not root.is_dir():
        return
    for folder, files in _walk(str(root), found, skills=True, stamps=stamps):
        if SKILL_FILE in files:
            yield _join(folder, SKILL_FILE)


def _command_files(root: Path, ext: str, found: Discovery) -> Iterator[tuple[str, Path]]:
    """(name, file) of every command below `root`; subfolders namespace the name with `:`."""
    if not root.is_dir():
        return
    for folder, files in _walk(str(root), found):
        for file_name in sorted(files):
            if file_name.endswith(ext) and not file_name.startswith("."):
                path = Path(folder, file_name)
                relative = path.relative_to(root).with_suffix("")
                yield ":".join(relative.parts), path


def _walk(
    root: str, found: Discovery, *, skills: bool = False, stamps: dict[str, Stamp] | None = None
) -> Iterator[tuple[str, list[str]]]:
    """Folders below `root` (itself first) with their file names, sorted, bounded, loop-safe.

    With `skills`, a folder holding a `SKILL.md` is yielded with that one file and not listed: one
    `stat` instead of a listing per skill (start-up time with hundreds of skills). Paths are strings:
    `pathlib` costs more than the file system calls here.
    """
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[str, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        if skills and folder != root:
            skill_file = _join(folder, SKILL_FILE)
            stamp = file_stamp(skill_file)  # the `stat` a regular-file check makes anyway
            if stamp is not None:
                if _over_bound(found, folder):
                    return
                if stamps is not None:
                    stamps[skill_file] = stamp
                yield folder, [SKILL_FILE]
                continue
        try:
            info = os.stat(folder)
        except OSError:
            continue
        real = (info.st_dev, info.st_ino)  # a folder seen under another name (a symlink) is the same
        if real in seen:
            found.diagnostics.append(Diagnostic(folder, "warning", "a symlink loop: folder visited already"))
            continue
        seen.add(real)
        if _over_bound(found, folder):
            return
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as exc:
            found.diagnostics.append(Diagnostic(folder, "error", f"cannot be listed ({exc.strerror})"))
            continue
        files = [e.name for e in entries if _is_file(e)]
        yield folder, files
        if SKILL_FILE in files and folder != root:
            continue
        if depth >= MAX_DEPTH:
            continue
        subfolders = [e for e in entries if e.name not in _SKIPPED and _is_dir(e)]
        stack.extend((e.path, depth + 1) for e in reversed(subfolders))


def _join(folder: str, name: str) -> str:
    """`os.path.join` for a file name (twice per skill at start-up, and join costs more than this)."""
    return f"{folder}{name}" if folder.endswith("/") else f"{folder}/{name}"


def _over_bound(found: Discovery, folder: str) -> bool:
    """Count `folder`; True (said once) past `MAX_DIRS` folders."""
    found.dirs_seen += 1
    if found.dirs_seen == MAX_DIRS + 1:
        found.diagnostics.append(
            Diagnostic(folder, "warning", f"more than {MAX_DIRS} folders: the rest is skipped")
        )
    return found.dirs_seen > MAX_DIRS


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


def read_text(path: Path | str, *, head: bool = False) -> tuple[str | None, str | None]:
    """(text, None) or (None, why it cannot be used): too large, binary, not UTF-8, unreadable. With
    `head`, a file over `HEAD_BYTES` is read only as far as its frontmatter block when it ends there
    (its size still checked): the catalog needs no body."""
    try:
        # os-level calls: one open and reads, no separate `stat`, none of `open()`'s buffer objects.
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            return _read_open(fd, head)
        finally:
            os.close(fd)
    except OSError as exc:
        return None, f"{CANNOT_READ} ({exc.strerror or exc})"


def _read_open(fd: int, head: bool) -> tuple[str | None, str | None]:
    data = b""
    if head:
        data = os.read(fd, HEAD_BYTES)
        if len(data) < HEAD_BYTES:
            return _decoded(data)  # the whole file
        if os.fstat(fd).st_size > MAX_FILE_BYTES:
            return _too_large(fd)
        frontmatter = _frontmatter_head(data)
        if frontmatter is not None:
            return frontmatter, None
    data += _read_up_to(fd, MAX_FILE_BYTES + 1 - len(data))
    if len(data) > MAX_FILE_BYTES:
        return _too_large(fd)
    return _decoded(data)


def _too_large(fd: int) -> tuple[None, str]:
    return None, f"too large ({os.fstat(fd).st_size} bytes; the limit is {MAX_FILE_BYTES})"


def _frontmatter_head(data: bytes) -> str | None:
    """The whole lines of `data` (a file's first bytes) when they hold a closed frontmatter block."""
    if b"\0" in data:
        return None  # a binary file: the whole read says so
    cut = data.rfind(b"\n") + 1  # a line break never falls inside a UTF-8 character
    try:
        text = data[:cut].decode("utf-8")
    except UnicodeDecodeError:
        return None
    if split_frontmatter(text.removeprefix("\ufeff")).block is None:
        return None
    return text


def _decoded(data: bytes) -> tuple[str | None, str | None]:
    if b"\0" in data[:HEAD_BYTES]:
        return None, "a binary file, not markdown"
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, "not UTF-8 text"


def _read_up_to(fd: int, limit: int) -> bytes:
    """Up to `limit` bytes of `fd` (fewer only at its end)."""
    data = os.read(fd, limit)
    if not data or len(data) == limit:
        return data
    chunks = [data]
    size = len(data)
    while size < limit:
        chunk = os.read(fd, limit - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _read_skill(skill_file: str, scope: Scope, source: str, body: bool) -> tuple[Loaded, str]:
    text, problem = read_text(skill_file, head=not body)
    if text is None:
        return Loaded(None, (), (problem or "unreadable",)), skill_file
    folder = skill_file.rpartition("/")[0] or "/"  # `_join` made it: `folder/SKILL.md`
    loaded = load_skill(
        text,
        path=skill_file,
        folder=folder,
        folder_name=folder.rpartition("/")[2],
        scope=scope,
        source=source,
        keep_body=body,
    )
    return loaded, skill_file


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
    for current, files in _walk(str(folder), found):
        for file_name in files:
            relative = Path(current, file_name).relative_to(folder).as_posix()
            if relative == SKILL_FILE:
                continue
            total += 1
            if len(listed) < limit:
                listed.append(relative)
    return sorted(listed), total
