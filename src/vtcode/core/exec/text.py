"""Raw command output into model-facing text: UTF-8 boundaries, terminal escapes and line endings.

The spool keeps the stream as the command wrote it; only previews are cleaned (SPEC section 8.3).
Every cut in a byte stream goes through the boundary helpers here, so no preview or progress report
ever shows half a character (reference exec-spool-release.md section 6.3).
"""

from __future__ import annotations

import re

ESC = 0x1B

# Longest unterminated escape sequence held back for the next read; longer ones are garbage anyway.
MAX_HELD_ESCAPE = 64

# The final byte of a two- or three-byte escape; `[`, `]`, `P`, `X`, `^` and `_` introduce longer ones.
_FINAL = r"[0-OQ-WYZ\\`a-~]"
_COMPLETE_ESCAPE = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[ -/]*"
    + _FINAL.encode()
    + rb")"
)

# ESC/CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC (ST terminated), two- and three-byte escapes.
_ANSI = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[ -/]*" + _FINAL + ")"
)
# A sequence cut off by the end of the text: dropped with the rest of it, as the terminal would wait.
_UNTERMINATED = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[PX^_][^\x1b]*|[ -/]*)?\Z")
# C0 controls other than tab, newline and carriage return, a stray ESC, and DEL.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_NEEDS_CLEANING = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def incomplete_utf8_suffix(data: bytes | bytearray | memoryview) -> int:
    """How many bytes (0-3) at the end of `data` start a UTF-8 character that is not complete yet."""
    size = len(data)
    for back in range(1, min(3, size) + 1):
        byte = data[size - back]
        if byte & 0xC0 == 0x80:
            continue
        if byte < 0xC0:
            return 0
        need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
        return back if need > back else 0
    return 0


def count_newlines(data: bytes) -> int:
    """Number of `\\n` bytes in `data`, by the faster of two C loops for its line length.

    `bytes.count` checks byte by byte; `bytes.replace` jumps between newlines with `memchr`, about
    2.5 times faster on log-like lines but far slower on very short ones, so a sample decides.
    """
    if len(data) < 8192:
        return data.count(b"\n")
    if data.count(b"\n", 0, 2048) > 64:
        return data.count(b"\n")
    return len(data) - len(data.replace(b"\n", b""))


def floor_boundary(data: bytes | bytearray, cut: int) -> int:
    """The largest character boundary at or before `cut` (moves back over continuation bytes)."""
    cut = max(0, min(cut, len(data)))
    for _ in range(3):
        if cut <= 0 or cut >= len(data) or data[cut] & 0xC0 != 0x80:
            break
        cut -= 1
    return cut


def ceil_boundary(data: bytes | bytearray, start: int) -> int:
    """The smallest character boundary at or after `start` (skips continuation bytes)."""
    start = max(0, min(start, len(data)))
    for _ in range(3):
        if start >= len(data) or data[start] & 0xC0 != 0x80:
            break
        start += 1
    return start


def held_back(data: bytes | bytearray, *, final: bool) -> int:
    """Bytes at the end of `data` to keep for the next read: an unfinished character or escape.

    At the end of the stream (`final`) nothing more can arrive, so nothing is held.
    """
    if final or not data:
        return 0
    hold = incomplete_utf8_suffix(data)
    window_start = max(0, len(data) - MAX_HELD_ESCAPE)
    esc = data.rfind(bytes([ESC]), window_start)
    if esc >= 0:
        rest = bytes(data[esc:])
        if b"\n" not in rest and _COMPLETE_ESCAPE.match(rest) is None:
            hold = max(hold, len(data) - esc)
    return hold


def clean_text(text: str) -> str:
    """Terminal escapes and stray controls removed, CRLF and lone CR turned into newlines."""
    if _NEEDS_CLEANING.search(text) is not None:
        text = _ANSI.sub("", text)
        text = _UNTERMINATED.sub("", text)
        text = _CONTROLS.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def decode_clean(data: bytes | bytearray) -> str:
    """Bytes cut on character boundaries, decoded (invalid bytes become U+FFFD) and cleaned."""
    return clean_text(bytes(data).decode("utf-8", "replace"))
