"""The two engines behind `grep_files`: ripgrep when installed, a Python scan otherwise.

Both search the same explicit file list (from `file_set`), one line at a time, and agree exactly:
a file containing a NUL byte anywhere is binary and skipped (rg reports it as `binary_offset`);
line text is decoded as UTF-8 with replacement characters; a trailing CR is not part of the line
(`$` matches before CRLF). One known difference stays: on bytes that are not valid UTF-8, Python's
`.` matches the replacement character while rg's `.` matches nothing.
"""

from __future__ import annotations

import base64
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from vtcode.tools.command_output import run_command
from vtcode.tools.read_file import BINARY_SNIFF_BYTES

log = logging.getLogger(__name__)

# Kept well under the kernel's argument-list limit; a big repository is searched in several runs.
_ARGV_BATCH_BYTES = 100_000


@dataclass(frozen=True, order=True)
class GrepMatch:
    """One matching line: workspace-relative path, 1-based line number, line text without its ending."""

    path: str
    line: int
    text: str


def python_search(root: Path, files: Sequence[str], regex: re.Pattern[str]) -> list[GrepMatch]:
    """Scan `files` (workspace-relative) line by line with Python's `re`; sorted by path, then line."""
    matches: list[GrepMatch] = []
    for relative in files:
        data = _read_text_bytes(root / relative)
        if data is None:
            continue
        # Splitting the decoded text on "\n" equals splitting the bytes: a newline never sits inside
        # an invalid sequence that the decoder replaces.
        lines = data.decode("utf-8", errors="replace").split("\n")
        if lines[-1] == "":
            lines.pop()
        for number, line in enumerate(lines, start=1):
            text = line.removesuffix("\r")
            if regex.search(text):
                matches.append(GrepMatch(relative, number, text))
    matches.sort()
    return matches


def _read_text_bytes(path: Path) -> bytes | None:
    """The file's bytes, or None when it holds a NUL byte or is unreadable (vanished since listed)."""
    try:
        with open(path, "rb") as handle:
            # Most binary files show a NUL at once; checking the head first avoids reading them whole.
            head = handle.read(BINARY_SNIFF_BYTES)
            if b"\0" in head:
                return None
            rest = handle.read()
    except OSError:
        return None
    return None if b"\0" in rest else head + rest


class _Data(msgspec.Struct):
    text: str | None = None
    bytes: str | None = None


class _MatchData(msgspec.Struct):
    path: _Data
    lines: _Data
    line_number: int | None = None


class _EndData(msgspec.Struct):
    path: _Data
    binary_offset: int | None = None


class _Match(msgspec.Struct, tag="match"):
    data: _MatchData


class _End(msgspec.Struct, tag="end"):
    data: _EndData


class _Other(msgspec.Struct):
    type: str


_event_decoder = msgspec.json.Decoder(_Match | _End)
_type_decoder = msgspec.json.Decoder(_Other)


async def ripgrep_search(rg: str, root: Path, files: Sequence[str], pattern: str) -> list[GrepMatch] | None:
    """Search `files` with ripgrep; None when rg cannot run this pattern (the caller falls back)."""
    matches: list[GrepMatch] = []
    for batch in _batches(files):
        found = await _ripgrep_batch(rg, root, batch, pattern)
        if found is None:
            return None
        matches.extend(found)
    matches.sort()
    return matches


async def _ripgrep_batch(rg: str, root: Path, files: Sequence[str], pattern: str) -> list[GrepMatch] | None:
    command = [
        rg,
        "--json",
        "--no-config",  # a user's RIPGREP_CONFIG_PATH must not change what the model sees
        "--crlf",  # `$` matches before "\r\n", as in the Python engine, which strips the CR
        "--encoding",
        "none",  # no UTF-16 BOM sniffing: bytes are bytes, as in the Python engine
        "--regexp",
        pattern,
        "--",
        *files,
    ]
    result = await run_command(command, root)
    if result is None:
        log.warning("ripgrep could not start; using the Python engine")
        return None
    # rg exits 1 for "no match" and 2 for errors; a regex rg's engine rejects (look-around,
    # back-references) is an error with no output at all, and Python can still run it.
    if result.returncode == 2 and not result.stdout:
        log.info("ripgrep failed: %s", result.stderr.decode(errors="replace").strip())
        return None
    try:
        return _parse_json_lines(result.stdout)
    except msgspec.DecodeError as exc:
        log.warning("unexpected ripgrep output (%s); using the Python engine", exc)
        return None


def _parse_json_lines(stdout: bytes) -> list[GrepMatch]:
    pending: dict[str, list[GrepMatch]] = {}
    matches: list[GrepMatch] = []
    for raw in stdout.splitlines():
        kind = _type_decoder.decode(raw).type
        if kind not in ("match", "end"):
            continue
        event = _event_decoder.decode(raw)
        if isinstance(event, _Match):
            path = _decode_path(event.data.path)
            text = _decode(event.data.lines).removesuffix("\n").removesuffix("\r")
            pending.setdefault(path, []).append(GrepMatch(path, event.data.line_number or 0, text))
        else:
            path = _decode_path(event.data.path)
            found = pending.pop(path, [])
            # rg searches explicitly named binary files anyway; drop them by the shared rule.
            if event.data.binary_offset is None:
                matches.extend(found)
    for leftover in pending.values():
        matches.extend(leftover)
    return matches


def _decode(data: _Data) -> str:
    if data.text is not None:
        return data.text
    raw = base64.b64decode(data.bytes or "")
    return raw.decode("utf-8", errors="replace")


def _decode_path(data: _Data) -> str:
    # Undecodable file names round-trip like os.fsdecode in the file listing.
    if data.text is not None:
        return data.text
    return os.fsdecode(base64.b64decode(data.bytes or ""))


def _batches(files: Sequence[str]) -> list[list[str]]:
    batches: list[list[str]] = []
    current: list[str] = []
    size = 0
    for name in files:
        cost = len(os.fsencode(name)) + 1
        if current and size + cost > _ARGV_BATCH_BYTES:
            batches.append(current)
            current, size = [], 0
        current.append(name)
        size += cost
    if current:
        batches.append(current)
    return batches
