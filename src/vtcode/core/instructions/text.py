"""Text processing of instruction files (pure): frontmatter, HTML comments, fences and `@` import tokens.

These follow the original's line-based rules (reference section 5.8 and 5.11) so that what reaches
the model is predictable: comments are authors' notes, fenced code is quoted verbatim, and an `@path`
token outside code (fenced blocks and inline code spans, as in Claude Code) imports that file.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from vtcode.core.instructions.markdown import FenceTracker, blank_code_spans

# Characters trimmed from both ends of an `@` token: punctuation around a reference in prose.
_IMPORT_TRIM = ")([]{},;:"
_COMMENT_OPEN = "<!--"
_COMMENT_CLOSE = "-->"


class Frontmatter(NamedTuple):
    """A file split at its YAML frontmatter; `block` is None when there is none (or it is unclosed)."""

    block: str | None
    body: str


class BlockLine(NamedTuple):
    """A line of a frontmatter block read without YAML: a top-level `key: value`, or an inner line."""

    # The line without surrounding white space.
    text: str
    # Whether it starts a key (not indented, not a `-` item); then `key` and `value` are its halves and
    # `separated` says whether it had the colon at all.
    top_level: bool
    key: str = ""
    value: str = ""
    separated: bool = False


def block_lines(block: str) -> Iterator[BlockLine]:
    """The lines of a frontmatter block that say something (blank lines and `#` comments skipped)."""
    for raw in block.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[0] in " \t-":
            yield BlockLine(stripped, top_level=False)
            continue
        name, sep, value = line.partition(":")
        yield BlockLine(stripped, top_level=True, key=name.strip(), value=value.strip(), separated=bool(sep))


def unquote(value: str) -> str:
    """`value` without one pair of matching quotes around it."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def split_lines(text: str) -> list[str]:
    """Lines as Rust's `str::lines` yields them: split on `\\n`, a trailing `\\r` dropped, no last empty."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


_HEAD_CHARS = 1024


def split_frontmatter(text: str) -> Frontmatter:
    """Split a leading `---` block closed by `---` or `...`; an unclosed block is ordinary text."""
    if not text.startswith("---"):
        return Frontmatter(None, text)  # the first line cannot be `---`: no lines to split
    # Lines are split in a growing prefix, not the whole text: a long body is sliced once, not split
    # into lines and joined again. A prefix's lines but its last (which may be cut short, or be the
    # `\r` of a `\r\n`) are the text's own lines.
    size = _HEAD_CHARS
    while True:
        whole = size >= len(text)
        lines = (text if whole else text[:size]).splitlines(keepends=True)
        complete = len(lines) if whole else len(lines) - 1
        if complete > 0:
            if lines[0].rstrip() != "---":
                return Frontmatter(None, text)
            offset = len(lines[0])
            for index in range(1, complete):
                line = lines[index]
                offset += len(line)
                if line.rstrip() in ("---", "..."):
                    return Frontmatter("".join(lines[1:index]), text[offset:])
        if whole:
            return Frontmatter(None, text)
        size *= 4


def strip_html_comments(text: str) -> str:
    """Remove `<!-- ... -->` outside fenced code; an unclosed comment removes the rest of the file.

    Every output line ends with `\\n` (CRLF becomes LF); a line that was all comment becomes empty.
    """
    out: list[str] = []
    fences = FenceTracker()
    in_comment = False
    for line in split_lines(text):
        if not in_comment and fences.feed(line):
            out.append(line)
            continue
        kept, in_comment = _strip_line(line, in_comment)
        out.append(kept)
    return "".join(f"{line}\n" for line in out)


def _strip_line(line: str, in_comment: bool) -> tuple[str, bool]:
    kept: list[str] = []
    rest = line
    while rest:
        if in_comment:
            end = rest.find(_COMMENT_CLOSE)
            if end < 0:
                return "".join(kept), True
            rest = rest[end + len(_COMMENT_CLOSE) :]
            in_comment = False
        else:
            start = rest.find(_COMMENT_OPEN)
            if start < 0:
                kept.append(rest)
                break
            kept.append(rest[:start])
            rest = rest[start + len(_COMMENT_OPEN) :]
            in_comment = True
    return "".join(kept), in_comment


def import_tokens(line: str) -> list[str]:
    """The `@path` references of one line outside fenced blocks, in order; code spans never import.

    A whitespace-separated token is a reference when, after trimming surrounding punctuation, it
    starts with `@`; the path is what follows, trimmed again and without trailing dots
    (`See (@docs/a.md).` names `docs/a.md`). Only tokens that look like paths (containing `/` or `.`,
    or starting with `~`) count, so `@username` mentions are left alone. An e-mail address never
    counts: its token does not start with `@`.
    """
    found: list[str] = []
    for token in blank_code_spans(line).split():
        cleaned = token.strip(_IMPORT_TRIM)
        if not cleaned.startswith("@"):
            continue
        target = _trim_reference(cleaned[1:])
        if target and ("/" in target or "." in target or target.startswith("~")):
            found.append(target)
    return found


def _trim_reference(target: str) -> str:
    previous = None
    while previous != target:
        previous = target
        target = target.strip(_IMPORT_TRIM).rstrip(".")
    return target
