"""The two engines behind `grep_files`: ripgrep when installed, a Python scan otherwise.

Both search the same file set (from `file_set`), one line at a time, and agree exactly: rg gets
the files by name, or a directory the file set found to hold nothing but listed regular files, read
whole with every filter of rg's own turned off. A file containing a NUL byte anywhere is binary and
skipped (rg reports it as `binary_offset`);
line text is decoded as UTF-8 with replacement characters; a trailing CR is not part of the line
(`$` matches before CRLF). One known difference stays: on bytes that are not valid UTF-8, Python's
`.` matches the replacement character while rg's `.` matches nothing; on lines over a megabyte the
Python scan searches in overlapping pieces (see `grep_scan`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import re
from collections.abc import AsyncIterable, AsyncIterator, Sequence
from pathlib import Path

import msgspec

from vtcode.tools.file_set import FileBatch
from vtcode.tools.grep_scan import KEPT_TEXT_CHARS, GrepMatch, python_search
from vtcode.tools.ripgrep_output import run_ripgrep

__all__ = ["GrepMatch", "argv_batches", "python_search", "ripgrep_search_batches"]

log = logging.getLogger(__name__)

_POINTER_BYTES = 8


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


async def ripgrep_search_batches(
    rg: str, root: Path, batches: AsyncIterable[FileBatch], pattern: str
) -> list[GrepMatch] | None:
    """Search each batch of files as soon as it arrives, several rg processes at a time.

    Sorted by path, then line; None when rg cannot run this pattern. `batches` is always read to its
    end, so a caller collecting the files as they pass has all of them for the Python fallback.
    """
    slots = _Slots(_cores())
    searches: list[asyncio.Task[list[GrepMatch] | None]] = []
    try:
        async for batch in batches:
            if any(search.done() and search.result() is None for search in searches):
                continue  # rg rejected the pattern: the answer comes from the Python engine
            # A whole directory may gain a file between the listing and rg reading it; only the
            # listed files count, exactly as when each is named.
            listed = frozenset(batch.files) if batch.whole_directories else None
            for paths in argv_batches(_arguments(batch), _argv_budget()):
                job = _ripgrep_batch(rg, root, paths, pattern, slots=slots, listed=listed)
                searches.append(asyncio.create_task(job))
        found = [await search for search in searches]
    finally:
        # On an error or a cancelled call no rg process may outlive the search.
        for search in searches:
            search.cancel()
        await asyncio.gather(*searches, return_exceptions=True)
    matches: list[GrepMatch] = []
    for batch_matches in found:
        if batch_matches is None:
            return None
        matches.extend(batch_matches)
    matches.sort()
    return matches


def _arguments(batch: FileBatch) -> Sequence[str]:
    """The batch's whole directories, then its files that are not in one of them."""
    if not batch.whole_directories:
        return batch.files
    whole = set(batch.whole_directories)
    rest = [path for path in batch.files if path.rpartition("/")[0] not in whole]
    return [*batch.whole_directories, *rest]


async def _ripgrep_batch(
    rg: str,
    root: Path,
    paths: Sequence[str],
    pattern: str,
    *,
    slots: _Slots,
    listed: frozenset[str] | None,
) -> list[GrepMatch] | None:
    async with slots.taken() as threads:
        result = await run_ripgrep(_command(rg, paths, pattern, threads), root)
    if result is None:
        log.warning("ripgrep could not start; using the Python engine")
        return None
    # rg exits 1 for "no match" and 2 for errors; a regex rg's engine rejects (look-around,
    # back-references) is an error with no output at all, and Python can still run it.
    if result.returncode == 2 and not result.events and not result.overlong_paths:
        log.info("ripgrep failed: %s", result.stderr.decode(errors="replace").strip())
        return None
    try:
        matches = _parse_json_lines(result.events)
    except msgspec.DecodeError as exc:
        log.warning("unexpected ripgrep output (%s); using the Python engine", exc)
        return None
    if result.overlong_paths:
        matches = await _search_again(root, matches, result.overlong_paths, pattern)
    if listed is not None:
        matches = [match for match in matches if match.path in listed]
    return matches


async def _search_again(
    root: Path, matches: list[GrepMatch], paths: set[str], pattern: str
) -> list[GrepMatch]:
    """Replace rg's matches in `paths` (files with a match line too long to read) by a bounded scan.

    The Python scan reads such a line in pieces; the pattern already compiled for grep_files.
    """
    try:
        regex = re.compile(pattern)
    except re.error:
        return [match for match in matches if match.path not in paths]
    again = await asyncio.to_thread(python_search, root, sorted(paths), regex)
    return [match for match in matches if match.path not in paths] + again


def _cores() -> int:
    # The cores this process may run on (a container or taskset may allow fewer than the machine has).
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


class _Slots:
    """How many rg processes run at once (one per core), and how many threads each may use."""

    def __init__(self, cores: int) -> None:
        self._free = asyncio.Semaphore(cores)
        self._running = 0

    @contextlib.asynccontextmanager
    async def taken(self) -> AsyncIterator[int | None]:
        """Hold a slot; yields rg's thread count: 1 beside other rg processes, rg's default alone."""
        async with self._free:
            # rg's threads coordinate through shared queues, which costs more than it gains when
            # other rg processes already keep every core busy; alone, rg uses every core itself.
            threads = 1 if self._running else None
            self._running += 1
            try:
                yield threads
            finally:
                self._running -= 1


def _command(rg: str, paths: Sequence[str], pattern: str, threads: int | None) -> list[str]:
    command = [
        rg,
        "--json",
        "--no-config",  # a user's RIPGREP_CONFIG_PATH must not change what the model sees
        "--crlf",  # `$` matches before "\r\n", as in the Python engine, which strips the CR
        "--encoding",
        "none",  # no UTF-16 BOM sniffing: bytes are bytes, as in the Python engine
        # A directory read whole yields every file in it (the file set already left out what is
        # ignored), dot files included. A NUL byte there stops rg at once where a named file would
        # be read on, but both report `binary_offset`, so the file is dropped either way.
        "--no-ignore",
        "--hidden",
        "--regexp",
        pattern,
        "--",
        *paths,
    ]
    if threads is not None:
        command[1:1] = ["--threads", str(threads)]
    return command


def _parse_json_lines(events: Sequence[bytes]) -> list[GrepMatch]:
    pending: dict[str, list[GrepMatch]] = {}
    matches: list[GrepMatch] = []
    for raw in events:
        kind = _type_decoder.decode(raw).type
        if kind not in ("match", "end"):
            continue
        event = _event_decoder.decode(raw)
        if isinstance(event, _Match):
            path = _decode_path(event.data.path)
            text = _decode(event.data.lines).removesuffix("\n").removesuffix("\r")[:KEPT_TEXT_CHARS]
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


def argv_batches(files: Sequence[str], budget: int) -> list[Sequence[str]]:
    """`files` in order, cut into runs of about equal size whose arguments take at most `budget` bytes."""
    # The kernel counts each argument's bytes, its NUL and its pointer in the argument vector; a
    # character takes at most 4 bytes, which settles the usual case without encoding every name.
    if 4 * sum(map(len, files)) + (1 + _POINTER_BYTES) * len(files) <= budget:
        return [files]
    costs = [len(os.fsencode(name)) + 1 + _POINTER_BYTES for name in files]
    total = sum(costs)
    if total <= budget:
        return [files]
    # Equal shares rather than full runs and a small rest, so the processes finish together: cut
    # where the running cost crosses k/n of the total. A run then exceeds its share by less than
    # one name, which the choice of n leaves room for.
    count = -(-total // max(1, budget - max(costs)))
    batches: list[Sequence[str]] = []
    start = running = 0
    for index, cost in enumerate(costs):
        if index > start and (running + cost) * count > (len(batches) + 1) * total:
            batches.append(files[start:index])
            start = index
        running += cost
    batches.append(files[start:])
    return batches


def _argv_budget() -> int:
    """Bytes of file arguments one rg command line may carry."""
    try:
        limit = os.sysconf("SC_ARG_MAX")
    except (AttributeError, ValueError, OSError):
        limit = -1
    if limit <= 0:
        # No sysconf (Windows): its command line holds 32,767 characters in all.
        return 16_000
    # Half the limit leaves room for the environment, which counts against it too, and for the flags.
    return limit // 2
