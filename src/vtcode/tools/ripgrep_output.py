"""Running ripgrep with `--json` and reading its output in bounded memory, however long a matching line.

rg's JSON output carries each matching line whole (its `--max-columns` does not apply to `--json`,
upstream: BurntSushi/ripgrep#1451), so a match in a 200 MB minified file is one 200 MB output line.
Output lines are read with a cap: a longer one is dropped as it streams past, and only the file it
belongs to is remembered, for the caller to search that file again in bounded memory.

rg itself holds each line whole, in a buffer or a memory map of the file, to match it; it has no
option to stop that. So it runs without memory maps (`--no-mmap`, a caller's flag) and under a heap
limit (`DATA_LIMIT`): on a huge line its allocation fails and it aborts, which `out_of_memory`
reports so the caller can search again without it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import re
import signal
from collections.abc import Sequence
from pathlib import Path

import msgspec

from vtcode.tools.command_output import ended_with_the_call, start_helper

log = logging.getLogger(__name__)

# The heap one rg process may use. Its resident size stays below this plus its code and stack, which
# keeps it under 100 MB. rg reserves a few MB of address space per thread, touched or not, so a
# normal search with up to `MAX_THREADS` threads needs 57-64 MB here (measured, 12,288 files named).
DATA_LIMIT = 80 << 20
MAX_THREADS = 8
# An rg event longer than this is not kept: a line a model could use is far shorter (grep_files shows
# 400 bytes of it), and each event is decoded whole.
MAX_EVENT_BYTES = 1 << 20
_READ_BYTES = 1 << 16
# What is kept of an oversized event: enough for the file name at its start.
_HEAD_BYTES = 4096
# The start of a match event, up to its path: `{"type":"match","data":{"path":{"text":"a.py"}`.
_MATCH_PATH = re.compile(rb'^\{"type":"match","data":\{"path":\{"(text|bytes)":"((?:[^"\\]|\\.)*)"')


class RipgrepOutput(msgspec.Struct):
    """What one rg run printed: its complete events, and the files whose events were too long to keep."""

    returncode: int
    events: list[bytes] = msgspec.field(default_factory=list)
    overlong_paths: set[str] = msgspec.field(default_factory=set)
    stderr: bytes = b""

    @property
    def out_of_memory(self) -> bool:
        """Whether rg died for want of memory (the limit), so its output is incomplete."""
        # Rust aborts on a failed allocation, after printing this line.
        return self.returncode == -signal.SIGABRT or b"memory allocation of " in self.stderr


async def run_ripgrep(argv: Sequence[str], cwd: Path) -> RipgrepOutput | None:
    """Run rg under `DATA_LIMIT` to completion, reading its events line by line; None when it cannot start."""
    process = await start_helper(argv, cwd, data_limit=DATA_LIMIT)
    if process is None:
        return None
    assert process.stdout is not None
    assert process.stderr is not None
    output = RipgrepOutput(returncode=-1)
    async with ended_with_the_call(process):
        _, output.stderr = await asyncio.gather(_read_events(process.stdout, output), process.stderr.read())
        await process.wait()
    output.returncode = -1 if process.returncode is None else process.returncode
    return output


async def _read_events(stream: asyncio.StreamReader, output: RipgrepOutput) -> None:
    line = bytearray()  # the unfinished line carried from one read to the next
    overlong = False
    while chunk := await stream.read(_READ_BYTES):
        pieces = chunk.split(b"\n")
        rest = pieces.pop()
        if pieces:
            # The first piece ends the carried line; the others are whole lines of this read.
            if not overlong:
                line += pieces[0]
            _finish(line, overlong or len(line) > MAX_EVENT_BYTES, output)
            for piece in pieces[1:]:
                _finish(piece, len(piece) > MAX_EVENT_BYTES, output)
            line, overlong = bytearray(), False
        if not overlong:
            line += rest
            if len(line) > MAX_EVENT_BYTES:
                # Keep only the head, where the event names its file; the rest streams past.
                del line[_HEAD_BYTES:]
                overlong = True
    if line:
        _finish(line, overlong, output)


def _finish(line: bytes | bytearray, overlong: bool, output: RipgrepOutput) -> None:
    if not overlong:
        output.events.append(bytes(line))
        return
    found = _MATCH_PATH.match(bytes(line[:_HEAD_BYTES]))
    if found is None:
        # Only match events carry line text; any other long event says nothing a search needs.
        return
    kind, raw = found.group(1), found.group(2)
    try:
        # The captured text is a whole JSON string literal's content, escapes and all.
        value = json.loads(b'"' + raw + b'"')
        path = value if kind == b"text" else os.fsdecode(base64.b64decode(value))
    except ValueError:
        log.warning("ripgrep: could not read the file name of an oversized match event")
        return
    output.overlong_paths.add(path)
