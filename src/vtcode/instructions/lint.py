"""Finding path-scoped rules that can never apply: no file in the workspace matches any of their globs.

Checking a pattern walks only below its literal prefix (`src/legacy/**/*.py` looks in `src/legacy`) and
stops at the first match, so a rule that does apply somewhere costs a few directory reads; only a
pattern that really matches nothing walks everything below its prefix. Answers are cached for the
session: a file created later is an active path, which makes the rule match anyway.
"""

from __future__ import annotations

import os
from pathlib import Path

from vtcode.core.instructions.globs import PathPattern

_MAGIC = frozenset("*?[]{}")
# A walk this large is not worth finishing for a diagnostic: the pattern is then assumed to match.
MAX_ENTRIES = 250_000


class MatchProbe:
    """Answers "does any file below `base` match this pattern?", once per pattern and base."""

    def __init__(self) -> None:
        self._answers: dict[tuple[Path, str], bool] = {}
        self.walks = 0
        """How many walks were needed (the rest were answered from the cache)."""

    def any_match(self, base: Path, patterns: tuple[PathPattern, ...]) -> bool:
        """Whether any of `patterns` matches some file or folder below `base`."""
        return any(self._matches(base, pattern) for pattern in patterns)

    def _matches(self, base: Path, pattern: PathPattern) -> bool:
        key = (base, pattern.text)
        if key not in self._answers:
            self.walks += 1
            self._answers[key] = self._walk(base, pattern)
        return self._answers[key]

    def _walk(self, base: Path, pattern: PathPattern) -> bool:
        text = pattern.text.strip().lstrip("/").removeprefix("./")
        parts = text.split("/")
        literal: list[str] = []
        if len(parts) > 1:
            for part in parts[:-1]:
                if _MAGIC & set(part):
                    break
                literal.append(part)
        start = base.joinpath(*literal)
        if not start.is_dir():
            return False
        seen = 0
        stack = [start]
        while stack:
            directory = stack.pop()
            try:
                entries = list(os.scandir(directory))
            except OSError:
                continue
            for entry in entries:
                seen += 1
                if seen > MAX_ENTRIES:
                    return True
                if entry.name == ".git":
                    continue
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    is_dir = False
                relative = Path(entry.path).relative_to(base).as_posix()
                if pattern.matches(relative, is_dir=False):
                    return True
                if is_dir:
                    stack.append(Path(entry.path))
        return False
