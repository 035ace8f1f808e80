"""Glob semantics of rule `paths` and of `agent.instruction_excludes` (SPEC section 5, decision 4).

Rule patterns are matched against a path relative to the folder the rules belong to, with these rules:
`*` and `?` never cross `/`; `**` is a whole path component spanning zero or more directories
(`src/**.rs` is invalid, as in the original); `{a,b}` alternation and `[...]` classes work; names starting
with a dot are matched like any other; a pattern without `/` matches the file name at any depth, as in
`.gitignore` (`*.py` matches `src/a/b.py`), and a leading `/` anchors a pattern at the rules' root.
A directory matches when the pattern matches something inside it, so `src/**` applies once `src`
itself is active.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

# wcmatch is imported on first use (it costs ~7 ms at start-up, and most workspaces have no globs).
# A file name no real path uses: a directory candidate matches when the pattern would match a file
# inside it (`src/*` and `src/**` both match the directory `src`).
DIR_PROBE = "__vtcode_instruction_probe__"
_NON_LITERAL = frozenset("*?[]{},")
_UNIVERSAL = frozenset({"**", "**/*", "*", "**/**"})


class PatternError(ValueError):
    """A glob that can never work as written; the message says why."""


class PathPattern(msgspec.Struct, frozen=True):
    """One compiled rule pattern; `text` is the pattern as the author wrote it."""

    text: str
    _matcher: Any

    def matches(self, path: str, *, is_dir: bool = False) -> bool:
        """Whether the relative POSIX `path` (a directory when `is_dir`) matches."""
        if self._matcher.match(path):
            return True
        return is_dir and bool(self._matcher.match(f"{path}/{DIR_PROBE}"))


@functools.lru_cache(maxsize=4096)
def compile_pattern(text: str) -> PathPattern:
    """Compile a rule pattern, or raise `PatternError` saying what is wrong with it (cached by text)."""
    pattern = text.strip()
    if not pattern:
        raise PatternError("empty pattern")
    anchored = pattern.startswith("/")
    pattern = pattern.lstrip("/").removeprefix("./")
    for component in pattern.split("/"):
        if "**" in component and component != "**":
            raise PatternError(f"`**` must be a whole path component in {text!r}")
    from wcmatch import glob as wcglob

    try:
        matcher = wcglob.compile(pattern, flags=_flags(wcglob, anchored=anchored))
    except Exception as exc:  # wcmatch raises plain Exception subclasses (brace expansion limit)
        raise PatternError(f"invalid pattern {text!r}: {exc}") from None
    return PathPattern(text, matcher)


def is_universal(text: str) -> bool:
    """Whether a pattern matches every file (`**`, `**/*`, `*`): such a rule applies unconditionally."""
    return text.strip().lstrip("/").removeprefix("./") in _UNIVERSAL


def specificity(patterns: Iterable[str]) -> int:
    """The original's specificity: the most literal characters in any pattern (more is narrower)."""
    return max((sum(ch not in _NON_LITERAL for ch in p.strip()) for p in patterns), default=0)


def split_patterns(value: str) -> list[str]:
    """Split a comma-separated pattern list (`*.ts,*.tsx`), keeping commas inside braces."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in value:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def matching_patterns(
    patterns: Sequence[PathPattern], candidates: Sequence[tuple[str, bool]]
) -> tuple[str, ...]:
    """The patterns (as written) that match any `(relative path, is_dir)` candidate."""
    return tuple(p.text for p in patterns if any(p.matches(path, is_dir=d) for path, d in candidates))


class ExcludePattern(msgspec.Struct, frozen=True):
    """One `agent.instruction_excludes` entry, resolved to an absolute pattern."""

    text: str
    _matcher: Any

    def matches(self, absolute: str) -> bool:
        """Whether the real absolute path `absolute` is excluded."""
        return bool(self._matcher.match(absolute))


def compile_excludes(
    patterns: Sequence[str], *, root: str, home: str | None
) -> tuple[tuple[ExcludePattern, ...], tuple[str, ...]]:
    """Compiled exclusions and the messages of the patterns that could not be used.

    A relative pattern is anchored at the project root (`**/legacy/**` is `<root>/**/legacy/**`), `~/`
    at the home folder, an absolute one is kept, and one without `/` matches the file name at any
    depth. They are matched against real paths, so the root must be real (symlinks resolved) too.
    """
    if not any(text.strip() for text in patterns):
        return (), ()
    from wcmatch import glob as wcglob

    compiled: list[ExcludePattern] = []
    problems: list[str] = []
    for text in patterns:
        pattern = text.strip()
        if not pattern:
            continue
        if pattern == "~" or pattern.startswith("~/"):
            if home is None:
                problems.append(f"exclude {text!r} uses ~ but there is no home folder")
                continue
            pattern = wcglob.escape(home.rstrip("/")) + pattern[1:]
        elif not pattern.startswith("/") and "/" in pattern:
            pattern = wcglob.escape(root.rstrip("/")) + "/" + pattern.removeprefix("./")
        try:
            matcher = wcglob.compile(pattern, flags=_flags(wcglob, anchored=False))
        except Exception as exc:  # see compile_pattern
            problems.append(f"exclude {text!r} is not a valid pattern: {exc}")
            continue
        compiled.append(ExcludePattern(text, matcher))
    return tuple(compiled), tuple(problems)


def excluded_by(excludes: Sequence[ExcludePattern], absolute: str) -> str | None:
    """The first exclusion matching the real path `absolute`, as written, or None."""
    for exclude in excludes:
        if exclude.matches(absolute):
            return exclude.text
    return None


def _flags(wcglob: Any, *, anchored: bool) -> int:
    """wcmatch flags of a rule pattern: one without `/` matches the file name at any depth unless anchored."""
    flags: int = wcglob.GLOBSTAR | wcglob.BRACE | wcglob.DOTGLOB
    return flags if anchored else flags | wcglob.MATCHBASE
