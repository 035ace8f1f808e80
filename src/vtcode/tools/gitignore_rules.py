""".gitignore rules: one file's patterns compiled once, and the verdict of a chain of them on a path.

`file_set` walks a workspace that is no git repository with these, honouring every `.gitignore` from
the root down as git does (the deepest file with a matching pattern decides).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec


class IgnoreFile(msgspec.Struct, frozen=True):
    """One `.gitignore`: its workspace-relative directory and its patterns, last one first."""

    directory: str
    # pathspec's own rule (the last matching pattern decides) applied to its compiled regexes
    # directly: going through PathSpec.check_file cost more than the whole directory walk.
    patterns: tuple[tuple[re.Pattern[str], bool], ...]
    # All patterns in one regex: most paths match none, and then one search answers.
    any_pattern: re.Pattern[str] | None

    def verdict(self, path: str) -> bool | None:
        """True when ignored, False when re-included (`!pattern`), None when no pattern matches."""
        relative = path[len(self.directory) + 1 :] if self.directory else path
        if self.any_pattern is not None and self.any_pattern.search(relative) is None:
            return None
        for regex, include in self.patterns:
            if regex.search(relative) is not None:
                return include
        return None


IgnoreChain = tuple[IgnoreFile, ...]


def load_gitignore(path: str, directory: str) -> IgnoreFile | None:
    """The patterns of the `.gitignore` at `path` (in workspace directory `directory`); None if unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    import pathspec

    spec = pathspec.PathSpec.from_lines("gitignore", lines)
    patterns = tuple(
        (pattern.regex, pattern.include)
        for pattern in reversed(spec.patterns)
        if isinstance(pattern, pathspec.RegexPattern)
        and pattern.regex is not None
        and pattern.include is not None
    )
    return IgnoreFile(directory, patterns, _any_of(regex for regex, _ in patterns))


def _any_of(regexes: Iterable[re.Pattern[str]]) -> re.Pattern[str] | None:
    """One regex that matches where any of `regexes` does; None when they cannot be joined."""
    parts = list(regexes)
    flags = {regex.flags for regex in parts}
    if len(flags) != 1:
        return None
    try:
        # A group name used twice, or a flag set inside one pattern, makes this fail: no shortcut.
        return re.compile("|".join(f"(?:{regex.pattern})" for regex in parts), flags.pop())
    except re.error:
        return None


def ignored(path: str, chain: IgnoreChain) -> bool:
    """Whether `path` (a directory ends with "/") is ignored by the `.gitignore` files of `chain`."""
    # The deepest .gitignore with a matching pattern decides, so a nested "!keep.log" can re-include.
    for ignore_file in reversed(chain):
        verdict = ignore_file.verdict(path)
        if verdict is not None:
            return verdict
    return False
