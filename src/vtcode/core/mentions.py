"""`@path` mentions in typed text (pure): where they are, and how to write one that has spaces.

A mention starts with `@` at the start of the text or after whitespace. A path with spaces is written
quoted, `@"my notes/a b.md"` (what the composer inserts, as Codex auto-quotes), in braces,
`@{my notes/a.md}`, or with escaped spaces, `@my\\ notes/a.md` (Gemini CLI's two forms). A sentence
may end right after a path (`see @a.py.`): the caller tries the path as written first, then without
trailing punctuation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MENTION = re.compile(r"""(?<!\S)@(?:"([^"\n]+)"|'([^'\n]+)'|\{([^{}\n]+)\}|((?:\\ |[^\s"'{])(?:\\ |\S)*))""")
# Punctuation a sentence puts after a path ("look at @a.py, then ...").
TRAILING = ".,;:!?)]}'\""


@dataclass(frozen=True)
class Mention:
    """One `@path` in a text: the path it names (quotes and escapes removed) and where it is."""

    path: str
    start: int
    end: int
    quoted: bool

    def candidates(self) -> tuple[str, ...]:
        """The paths to try, in order: as written, then (unquoted only) without trailing punctuation."""
        if self.quoted:
            return (self.path,)
        bare = self.path.rstrip(TRAILING)
        return (self.path, bare) if bare and bare != self.path else (self.path,)


def find_mentions(text: str) -> list[Mention]:
    """Every `@path` of `text`, in order."""
    found: list[Mention] = []
    for match in _MENTION.finditer(text):
        quoted = match.group(1) or match.group(2) or match.group(3)
        if quoted is not None:
            found.append(Mention(quoted, match.start(), match.end(), True))
            continue
        raw = match.group(4)
        found.append(Mention(raw.replace("\\ ", " "), match.start(), match.end(), False))
    return found


def mention_text(path: str) -> str:
    """`@path` as it must be typed so it reads back as `path`: quoted when it holds whitespace."""
    if not any(character.isspace() for character in path) and '"' not in path and "'" not in path:
        return f"@{path}"
    if '"' not in path:
        return f'@"{path}"'
    return f"@'{path}'"
