"""The two engines behind `grep_files`: ripgrep when installed, a Python scan otherwise.

Both search the same file set (from `file_set`), one line at a time, and agree exactly: rg gets
the files by name, or a directory the file set found to hold nothing but listed regular files, read
whole with every filter of rg's own turned off. A file containing a NUL byte anywhere is binary and
skipped (rg reports it as `binary_offset`);
line text is decoded as UTF-8 with replacement characters; a trailing CR is not part of the line
(`$` matches before CRLF). One known difference stays: on bytes that are not valid UTF-8, Python's
`.` matches the replacement character while rg's `.` matches nothing; on lines over a megabyte the
Python scan searches in overlapping pieces (see `grep_scan`).

rg holds a whole line in memory to search it, so a file that is one 200 MB line would cost 200 MB.
It runs under a heap limit instead (see `ripgrep_output`); when it dies of it, the files of that run
over `LARGE_FILE_BYTES` are searched by the Python scan, in bounded memory, and the rest by rg again.
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

from vtcode.core.user_regex import compile_user_regex
from vtcode.tools.file_set import FileBatch
from vtcode.tools.grep_scan import KEPT_TEXT_CHARS, GrepMatch, python_search
from vtcode.tools.ripgrep_output import DATA_LIMIT, MAX_THREADS, RipgrepOutput, run_ripgrep

__all__ = ["GrepMatch", "argv_batches", "python_search", "ripgrep_search_batches"]

log = logging.getLogger(__name__)

_POINTER_BYTES = 8
# After rg ran out of memory, files larger than this go to the Python scan. One rg thread holding a
# line this long (its buffer, and the JSON of a matching line) stays well inside `DATA_LIMIT`.
LARGE_FILE_BYTES = 4 << 20


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
    rg: str,
    root: Path,
    batches: AsyncIterable[FileBatch],
    pattern: str,
    *,
    rescanned: list[str] | None = None,
) -> list[GrepMatch] | None:
    """Search each batch of files as soon as it arrives, several rg processes at a time.

    Sorted by path, then line; None when rg cannot run this pattern. `batches` is always read to its
    end, so a caller collecting the files as they pass has all of them for the Python fallback.
    Files searched by the Python scan because rg ran out of memory on them are added to `rescanned`.
    """
    scanned: list[str] = [] if rescanned is None else rescanned
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
                job = _ripgrep_batch(rg, root, paths, pattern, slots=slots, listed=listed, rescanned=scanned)
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
    rescanned: list[str],
) -> list[GrepMatch] | None:
    async with slots.taken() as threads:
        result = await run_ripgrep(_command(rg, paths, pattern, threads), root)
    if result is None:
        log.warning("ripgrep could not start; using the Python engine")
        return None
    if result.out_of_memory:
        files = _files_named(paths, listed)
        return await _search_within_memory(rg, root, files, pattern, rescanned)
    matches = await _matches(root, result, pattern)
    if matches is not None and listed is not None:
        matches = [match for match in matches if match.path in listed]
    return matches


async def _matches(root: Path, result: RipgrepOutput, pattern: str) -> list[GrepMatch] | None:
    """The matches of a finished rg run; None when rg could not run the pattern."""
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
    return matches


def _files_named(paths: Sequence[str], listed: frozenset[str] | None) -> list[str]:
    """The listed files an rg run was given, by name or as a whole directory."""
    if listed is None:
        return list(paths)
    named = set(paths)
    return [path for path in listed if path in named or path.rpartition("/")[0] in named]


async def _search_within_memory(
    rg: str, root: Path, files: list[str], pattern: str, rescanned: list[str]
) -> list[GrepMatch]:
    """Search `files` again after rg ran out of memory on them, without the large ones in rg.

    Large files go to the Python scan; the rest to one single-threaded rg at a time, whose memory
    they cannot exhaust unless they grew meanwhile, when the Python scan takes them too.
    """
    sizes = await asyncio.to_thread(_sizes, root, files)
    large = sorted(path for path in files if sizes.get(path, 0) > LARGE_FILE_BYTES)
    log.info(
        "ripgrep went over its %d MB memory limit (a very long line, or a very large pattern);"
        " searching %d file(s) over %d MB with the Python scan",
        DATA_LIMIT >> 20,
        len(large),
        LARGE_FILE_BYTES >> 20,
    )
    taken = set(large)
    rest = [path for path in files if path not in taken]
    matches: list[GrepMatch] = []
    python_files = list(large)
    for paths in argv_batches(rest, _argv_budget()) if rest else []:
        result = await run_ripgrep(_command(rg, paths, pattern, 1), root)
        found = None if result is None or result.out_of_memory else await _matches(root, result, pattern)
        if found is None:
            python_files.extend(paths)
        else:
            matches.extend(found)
    if python_files:
        rescanned.extend(python_files)
        matches.extend(await _python_search(root, sorted(python_files), pattern))
    return matches


def _sizes(root: Path, files: Sequence[str]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for path in files:
        with contextlib.suppress(OSError):  # gone since listed: rg skips it too
            sizes[path] = os.stat(root / path).st_size
    return sizes


async def _python_search(root: Path, files: Sequence[str], pattern: str) -> list[GrepMatch]:
    """The Python scan of `files`, with the pattern grep_files already compiled once."""
    try:
        regex = compile_user_regex(pattern)
    except re.error:
        return []
    return await asyncio.to_thread(python_search, root, files, regex)


async def _search_again(
    root: Path, matches: list[GrepMatch], paths: set[str], pattern: str
) -> list[GrepMatch]:
    """Replace rg's matches in `paths` (files with a match line too long to read) by a bounded scan.

    The Python scan reads such a line in pieces; the pattern already compiled for grep_files.
    """
    again = await _python_search(root, sorted(paths), pattern)
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
        self._cores = cores
        self._running = 0

    @contextlib.asynccontextmanager
    async def taken(self) -> AsyncIterator[int]:
        """Hold a slot; yields rg's thread count: 1 beside other rg processes, one per core alone."""
        async with self._free:
            # rg's threads coordinate through shared queues, which costs more than it gains when
            # other rg processes already keep every core busy; alone, rg uses every core itself,
            # up to the threads its memory limit has room for.
            threads = 1 if self._running else min(self._cores, MAX_THREADS)
            self._running += 1
            try:
                yield threads
            finally:
                self._running -= 1


def _command(rg: str, paths: Sequence[str], pattern: str, threads: int) -> list[str]:
    return [
        rg,
        "--json",
        "--threads",
        str(threads),
        # A memory map of a searched file counts in rg's resident memory, all of it for a file
        # that is one line; rg maps only a few named files anyway, so this costs nothing elsewhere.
        "--no-mmap",
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
