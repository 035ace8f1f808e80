"""Piped stdin for `vtcode exec`: the prompt when none is given, else a bounded `<stdin>` context block.

Only a pipe, a socket (how some runners connect stdio) or a regular file is read; a terminal or
`/dev/null` never is. A pipe next to a prompt may be one a CI runner or a parent process left open with
nothing to say, so it is read only if its first byte arrives within `FIRST_BYTE_GRACE_SECONDS` (the wait
overlaps the session's start-up, so a run pays it only beyond that); once data came it is read to EOF.
Beyond `CONTEXT_LIMIT_BYTES` the model gets the head and the path of a file holding everything.
"""

from __future__ import annotations

import os
import select
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

from vtcode.cli.inputs import StdinKind

CONTEXT_LIMIT_BYTES = 64 * 1024
FIRST_BYTE_GRACE_SECONDS = 0.5
STDIN_SPOOL_DIR = Path(".vtcode") / "context" / "stdin"
_CHUNK = 64 * 1024


def read_all(fd: int = 0) -> str:
    """Everything on `fd`, decoded leniently (a stray invalid byte must not end the run)."""
    chunks: list[bytes] = []
    while chunk := os.read(fd, _CHUNK):
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


@dataclass(frozen=True)
class StdinContext:
    """What stdin held: its head (at most the limit), its size, and the file with all of it when cut."""

    head: str
    total_bytes: int
    spool: Path | None = None


@dataclass(eq=False)
class StdinReader:
    """Reads stdin in a thread while the session starts; `result()` once the prompt is to be sent."""

    workspace: Path
    _: KW_ONLY
    fd: int = 0
    kind: StdinKind = "pipe"
    limit: int = CONTEXT_LIMIT_BYTES
    grace: float = FIRST_BYTE_GRACE_SECONDS
    done: bool = field(default=False, init=False)
    error: OSError | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _callbacks: list[Callable[[], object]] = field(default_factory=list, init=False, repr=False)
    _context: StdinContext | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        # A daemon: a writer that never closes its pipe must not keep vtcode from exiting.
        self._thread = threading.Thread(target=self._run, name="vtcode-stdin", daemon=True)

    def start(self) -> StdinReader:
        """Begin reading."""
        self._thread.start()
        return self

    def when_done(self, callback: Callable[[], object]) -> None:
        """Call `callback` (from the reading thread, or now) once reading has ended."""
        with self._lock:
            if not self.done:
                self._callbacks.append(callback)
                return
        callback()

    def result(self) -> StdinContext | None:
        """What was read (None: nothing, or nothing within the grace); call once done."""
        if self.error is not None:
            raise self.error
        return self._context

    def _run(self) -> None:
        try:
            self._context = self._read()
        except OSError as exc:
            self.error = exc
        finally:
            with self._lock:
                self.done = True
                callbacks, self._callbacks = self._callbacks, []
            for callback in callbacks:
                callback()

    def _read(self) -> StdinContext | None:
        if self.kind == "pipe":
            ready, _, _ = select.select([self.fd], [], [], self.grace)
            if not ready:
                return None
        head = bytearray()
        total = 0
        spool: Path | None = None
        out = None
        try:
            while chunk := os.read(self.fd, _CHUNK):
                total += len(chunk)
                room = self.limit - len(head)
                head.extend(chunk[:room])
                if total > self.limit:
                    if out is None:
                        spool = self._spool_path()
                        out = spool.open("wb")
                        out.write(bytes(head))
                        chunk = chunk[room:] if room > 0 else chunk
                    out.write(chunk)
        finally:
            if out is not None:
                out.close()
        if total == 0:
            return None
        text = bytes(head).decode("utf-8", "replace" if spool is None else "ignore")
        return StdinContext(head=text, total_bytes=total, spool=spool)

    def _spool_path(self) -> Path:
        folder = self.workspace / STDIN_SPOOL_DIR
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"stdin-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:8]}.txt"


def with_stdin(prompt: str, context: StdinContext | None, workspace: Path) -> str:
    """`prompt` followed by the `<stdin>` block (unchanged when stdin held nothing)."""
    if context is None:
        return prompt
    if context.spool is None:
        return f"{prompt}\n\n<stdin>\n{context.head.rstrip(chr(10))}\n</stdin>"
    where = context.spool.relative_to(workspace)
    return (
        f"{prompt}\n\n<stdin>\n{context.head}\n"
        f"[stdin is cut here: {context.total_bytes:,} bytes in all; the whole input is in {where} "
        "(read it with read_file)]\n</stdin>"
    )
