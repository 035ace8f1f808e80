"""Finding path-scoped rules that can never apply: no file in the workspace matches any of their globs.

"The workspace" is the file set the search tools see (`list_files`: git's index and untracked files
where there is a repository, `.gitignore` rules otherwise), so an ignored `node_modules/` of 250k
entries is never walked and a rule matching only ignored files is reported. The set is listed once, on
the first question, by the function the runtime passes in (this package does not depend on the tools),
and shared by every rule and rebuild of the session: a file created later is an active path, which
makes the rule match anyway. The folders holding those files count too (`paths: docs` names one).

Most patterns are answered without matching every path: the set is sorted, so a literal folder prefix
(`src/legacy/**/*.py`) is a binary search, and a literal tail (`*.rb`) a plain string test first.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from pathlib import Path

from vtcode.core.instructions.globs import PathPattern
from vtcode.instructions.options import is_within, relative_posix

_MAGIC = frozenset("*?[]{}")

FileLister = Callable[[Path], Sequence[str]]
"""Lists the visible files below a folder, as POSIX paths relative to it."""


class MatchProbe:
    """Answers "does any visible file below `base` match this pattern?", once per pattern and base."""

    def __init__(self, root: Path, list_files: FileLister) -> None:
        self._root = root
        self._list_files = list_files
        self._files: list[str] | None = None
        self._below: dict[Path, list[str]] = {}
        self._answers: dict[tuple[Path, str], bool] = {}
        self.listings = 0
        """How many times the file set was listed (once per session; tests check it)."""

    def any_match(self, base: Path, patterns: tuple[PathPattern, ...]) -> bool:
        """Whether any of `patterns` matches some visible file (or folder holding one) below `base`."""
        return any(self._matches(base, pattern) for pattern in patterns)

    def _matches(self, base: Path, pattern: PathPattern) -> bool:
        key = (base, pattern.text)
        if key not in self._answers:
            files = self._files_below(base)
            # Outside the listed tree nothing is known: never claim a rule is useless there.
            if files is None:
                self._answers[key] = True
            else:
                self._answers[key] = any(pattern.matches(path) for path in _candidates(files, pattern.text))
        return self._answers[key]

    def _files_below(self, base: Path) -> list[str] | None:
        if not is_within(base, self._root):
            return None
        if base not in self._below:
            if self._files is None:
                self.listings += 1
                self._files = _with_folders(self._list_files(self._root))
            prefix = relative_posix(base, self._root)
            if prefix == ".":
                self._below[base] = self._files
            else:
                start = prefix + "/"
                self._below[base] = [p[len(start) :] for p in _prefixed(self._files, start)]
        return self._below[base]


def _with_folders(files: Sequence[str]) -> list[str]:
    """The files and every folder holding them, sorted."""
    folders: set[str] = set()
    for path in files:
        index = path.rfind("/")
        # Stop at a folder already known: its parents are known too.
        while index > 0 and path[:index] not in folders:
            folders.add(path[:index])
            index = path.rfind("/", 0, index)
    return sorted({*files, *folders})


def _prefixed(paths: list[str], prefix: str) -> list[str]:
    """The sorted `paths` starting with `prefix` (which ends with `/`), by binary search."""
    start = bisect_left(paths, prefix)
    end = bisect_left(paths, prefix[:-1] + chr(ord("/") + 1))
    return paths[start:end]


def _candidates(paths: list[str], text: str) -> list[str]:
    """The paths that can match the pattern `text` at all: below its literal folders, with its tail."""
    parts = text.strip().lstrip("/").removeprefix("./").split("/")
    literal: list[str] = []
    for part in parts[:-1]:
        if _MAGIC & set(part):
            break
        literal.append(part)
    candidates = _prefixed(paths, "/".join(literal) + "/") if literal else paths
    tail = parts[-1]
    if len(tail) > 1 and tail[0] == "*" and not _MAGIC & set(tail[1:]):
        candidates = [path for path in candidates if path.endswith(tail[1:])]
    return candidates
