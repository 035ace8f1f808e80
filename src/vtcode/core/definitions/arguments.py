"""Arguments of `/name args` placed into a command or skill body (pure), each source's own way.

Reference section 5: Claude Code (and vtcode's own files) number from 0 (`$0`, `$ARGUMENTS[0]`) and
take named `arguments`; Codex prompts and opencode number from 1 (opencode's highest placeholder takes
the rest; Codex leaves `$$` as it is); Gemini has `{{args}}`. `$ARGUMENTS` is the whole text.
A body without any placeholder gets the arguments appended. Shell blocks (`` !`cmd` ``, `!{cmd}`) are
returned separately and arguments inside them are always shell-quoted (Gemini's rule), so
`it's` can never end a quote early.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from vtcode.core.definitions.model import ArgumentStyle

_SHELL = re.compile(r"!`([^`\n]+)`|!\{([^{}\n]*(?:\{\{args\}\}[^{}\n]*)*)\}")
_CLAUDE = re.compile(r"\\\$|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)|\$([A-Za-z_]\w*)")
_NUMBERED = re.compile(r"\$\$|\$ARGUMENTS\b|\$(\d+)")
_GEMINI = re.compile(r"\{\{args\}\}")


@dataclass(frozen=True)
class ShellBlock:
    """A command the body asks to run before it is sent; its output replaces it."""

    command: str


@dataclass(frozen=True)
class Expansion:
    """The body as parts: text, and shell blocks in the order they appear."""

    parts: tuple[str | ShellBlock, ...]

    @property
    def commands(self) -> tuple[str, ...]:
        """The shell commands, in order."""
        return tuple(p.command for p in self.parts if isinstance(p, ShellBlock))

    def text(self, outputs: Sequence[str]) -> str:
        """The final text, each shell block replaced by its output (given in order)."""
        results = iter(outputs)
        return "".join(p if isinstance(p, str) else next(results, "") for p in self.parts)


def split_arguments(raw: str) -> list[str]:
    """Shell-style words of `raw`; unbalanced quotes fall back to splitting at whitespace."""
    try:
        return shlex.split(raw)
    except ValueError:
        return raw.split()


def expand(body: str, style: ArgumentStyle, raw: str, named: Sequence[str] = ()) -> Expansion:
    """`body` with the arguments `raw` placed the way `style` numbers them."""
    words = split_arguments(raw)
    used = False
    parts: list[str | ShellBlock] = []
    position = 0
    for match in _SHELL.finditer(body):
        text, hit = _substitute(body[position : match.start()], style, raw, words, named, quote=False)
        parts.append(text)
        command, hit_shell = _substitute(
            match.group(1) or match.group(2) or "", style, raw, words, named, quote=True
        )
        parts.append(ShellBlock(command.strip()))
        used = used or hit or hit_shell
        position = match.end()
    text, hit = _substitute(body[position:], style, raw, words, named, quote=False)
    parts.append(text)
    used = used or hit
    if not used and raw.strip():
        suffix = f"\n\nARGUMENTS: {raw.strip()}" if style == "claude" else f"\n\n{raw.strip()}"
        parts.append(suffix)
    return Expansion(tuple(p for p in parts if p != ""))


def _substitute(
    text: str, style: ArgumentStyle, raw: str, words: list[str], named: Sequence[str], *, quote: bool
) -> tuple[str, bool]:
    """`text` with placeholders replaced, and whether any placeholder was found."""
    hits = False

    def put(value: str) -> str:
        nonlocal hits
        hits = True
        return shlex.quote(value) if quote else value

    def word(index: int) -> str:
        return words[index] if 0 <= index < len(words) else ""

    if style == "gemini":
        return _GEMINI.sub(lambda _: put(raw.strip()), text), hits
    if style == "claude":

        def claude(match: re.Match[str]) -> str:
            whole = match.group(0)
            if whole == "\\$":
                return "$"
            if match.group(1) is not None:
                return put(word(int(match.group(1))))
            if match.group(2) is not None:
                return put(word(int(match.group(2))))
            name = match.group(3)
            if name is not None:
                if name in named:
                    return put(word(list(named).index(name)))
                return whole
            return put(raw.strip())

        return _CLAUDE.sub(claude, text), hits
    highest = max((int(n) for n in re.findall(r"\$(\d+)", text)), default=0)

    def numbered(match: re.Match[str]) -> str:
        whole = match.group(0)
        if whole == "$$":
            return whole  # Codex leaves `$$` untouched (and so no `$1` is read inside it)
        if match.group(1) is None:
            return put(raw.strip())
        index = int(match.group(1))
        if style == "opencode" and index == highest and index >= 1:
            return put(" ".join(words[index - 1 :]))  # opencode: the last placeholder takes the rest
        return put(word(index - 1))

    return _NUMBERED.sub(numbered, text), hits
