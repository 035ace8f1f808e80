"""Finding path-scoped rules that can never apply: no file in the workspace matches any of their globs.

"The workspace" is the file set the search tools see (`list_files`: git's index and untracked files
where there is a repository, `.gitignore` rules otherwise), so an ignored `node_modules/` of 250k
entries is never walked and a rule matching only ignored files is reported. The set is listed once, on
the first question, by the function the runtime passes in (this package does not depend on the tools),
and shared by every rule and rebuild of the session: a file created later is an active path, which
makes the rule match anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from vtcode.core.instructions.globs import PathPattern
from vtcode.instructions.options import is_within, relative_posix

FileLister = Callable[[Path], Sequence[str]]
"""Lists the visible files below a folder, as POSIX paths relative to it."""


class MatchProbe:
    """Answers "does any visible file below `base` match this pattern?", once per pattern and base."""

    def __init__(self, root: Path, list_files: FileLister) -> None:
        self._root = root
        self._list_files = list_files
        self._files: Sequence[str] | None = None
        self._below: dict[Path, list[str]] = {}
        self._answers: dict[tuple[Path, str], bool] = {}
        self.listings = 0
        """How many times the file set was listed (once per session; tests check it)."""

    def any_match(self, base: Path, patterns: tuple[PathPattern, ...]) -> bool:
        """Whether any of `patterns` matches some visible file below `base`."""
        return any(self._matches(base, pattern) for pattern in patterns)

    def _matches(self, base: Path, pattern: PathPattern) -> bool:
        key = (base, pattern.text)
        if key not in self._answers:
            files = self._files_below(base)
            # Outside the listed tree nothing is known: never claim a rule is useless there.
            self._answers[key] = files is None or any(pattern.matches(path) for path in files)
        return self._answers[key]

    def _files_below(self, base: Path) -> list[str] | None:
        if not is_within(base, self._root):
            return None
        if base not in self._below:
            if self._files is None:
                self.listings += 1
                self._files = self._list_files(self._root)
            prefix = relative_posix(base, self._root)
            if prefix == ".":
                self._below[base] = list(self._files)
            else:
                start = prefix + "/"
                self._below[base] = [p[len(start) :] for p in self._files if p.startswith(start)]
        return self._below[base]
