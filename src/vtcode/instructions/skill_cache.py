"""What start-up read from each `SKILL.md`, kept between sessions: a file whose `stat` is unchanged is not
read or parsed again (start-up time with hundreds of skills).

An entry is keyed by the file's path and source and stamped with its modification and change times,
size, inode and device. The change time moves with every write and cannot be set back, so an edit is
seen even when the modification time is restored; a file changed in the last `FRESH_NS` (either time)
is not stored at all, since two edits of the same size within one timestamp tick would share a stamp
(git's "racy" entries). An entry holds the `Definition` discovery made (its body is read on use) and
the problems found; skills with frontmatter `hooks` are read every time. The cache lives in
`$VTCODE_HOME/cache/skills/`, one file per workspace; an unreadable or outdated one (another format,
version, or build of the parsing modules) is ignored and rewritten, and a failed write changes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import threading
import time
from pathlib import Path

import msgspec

from vtcode import __version__
from vtcode.core.definitions.model import Definition, Loaded

FORMAT = f"2/{__version__}"  # bump the number when what discovery makes of a file changes
# The modules that decide what an entry holds: their stamps join the format, since `__version__` stays
# the same across builds (an install from a newer commit, an edit in development) and a parse change
# would otherwise serve what an older parser made of an unchanged file.
_PARSERS = (
    "instructions/skill_cache.py",
    "instructions/definitions.py",
    "core/definitions/model.py",
    "core/definitions/frontmatter.py",
    "core/instructions/text.py",
)
FRESH_NS = 2_000_000_000
"""Files written this recently are read every time (coarse file system clocks: up to 2 s on FAT)."""

Stamp = tuple[int, int, int, int, int]


class _Entry(msgspec.Struct, array_like=True, gc=False):
    """A file's stamp, the problems found in it and, when it loaded, the skill as discovery made it
    (without a body or hooks: `put` keeps no other)."""

    stamp: Stamp
    problems: tuple[str, ...]
    errors: tuple[str, ...]
    definition: Definition | None = None


CACHED_FIELDS = frozenset(Definition.__struct_fields__)
"""The `Definition` fields an entry keeps: all of them (the place fields are the key's; `body` and
`hooks` are None in every entry kept)."""


def _build_format() -> str:
    """`FORMAT` and the stamps of `_PARSERS` (a few `stat`s, once per discovery)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stamps = [FORMAT]
    for module in _PARSERS:
        try:
            info = os.stat(os.path.join(package, module))
        except OSError:
            stamps.append("-")  # not a plain file (a zip import): the version alone keys the cache
            continue
        stamps.append(f"{info.st_mtime_ns}:{info.st_size}")
    return "/".join(stamps)


class _File(msgspec.Struct):
    format: str
    entries: dict[str, _Entry]


def file_stamp(path: str) -> Stamp | None:
    """The stamp of a regular file (one `stat`), or None when it is missing or not a regular file."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino, info.st_dev)


class SkillCache:
    """The entries of one workspace: looked up by `get`, refreshed by `put`, written by `save`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._format = _build_format()
        self._old = _read(path, self._format)
        self._new: dict[str, _Entry] = {}
        self._changed = False

    def get(self, key: str, stamp: Stamp) -> Loaded | None:
        """What discovery made of the skill file of `key` last time, if its stamp is unchanged."""
        entry = self._old.get(key)
        if entry is None or entry.stamp != stamp:
            return None
        self._new[key] = entry
        return Loaded(entry.definition, entry.problems, entry.errors)

    def put(self, key: str, stamp: Stamp, loaded: Loaded) -> None:
        """Remember what discovery made of a skill file it has just read."""
        d = loaded.definition
        if d is not None and (d.hooks is not None or d.body is not None or d.style != "claude"):
            return  # hooks hold any YAML value; a body is not what the cache keeps
        if time.time_ns() - max(stamp[0], stamp[1]) < FRESH_NS:
            return  # it may change again within the same timestamp tick, stamp and all
        if not key.isascii():
            try:
                key.encode()
            except UnicodeEncodeError:
                return  # a path that is not UTF-8 (surrogate escapes): msgpack strings cannot hold it
        self._new[key] = _Entry(stamp, loaded.problems, loaded.errors, d)
        self._changed = True

    def save(self) -> None:
        """Write the entries of this discovery when they differ from the file's (files gone are dropped)."""
        if not self._changed and self._new.keys() == self._old.keys():
            return
        # One temporary file per writing thread: sessions and subagents of one process may save at once.
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(msgspec.msgpack.encode(_File(self._format, self._new)))
            os.replace(temporary, self.path)  # readers see the old file or the new one, never a part
        except (OSError, UnicodeEncodeError):
            with contextlib.suppress(OSError):  # a cache: the next session reads the files again
                temporary.unlink()


def cache_for(vtcode_home: Path, workspace: Path) -> SkillCache:
    """The cache of the skills seen from `workspace` (a resolved path)."""
    name = hashlib.sha256(os.fsencode(workspace)).hexdigest()[:24]  # a folder name may not be UTF-8
    return SkillCache(vtcode_home / "cache" / "skills" / f"{name}.msgpack")


def _read(path: Path, build_format: str) -> dict[str, _Entry]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    try:
        cached = msgspec.msgpack.decode(data, type=_File)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return {}  # torn, foreign or from another version of the format
    return cached.entries if cached.format == build_format else {}
