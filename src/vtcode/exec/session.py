"""One command session: a shell in its own process group, its output stream, and calls that wait on it.

Two facts are tracked apart (SPEC section 8.5): the shell exited (its pidfd fired) and the output is
drained (the stream reached end of file). Every call sleeps on exactly these two events with one
timeout, so a `wait` returns the moment the command ends, without a polling interval.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from vtcode.core.exec.result import CallKind, CommandInfo, SessionView
from vtcode.core.exec.wait import return_at
from vtcode.core.preview import Preview
from vtcode.exec.errors import SessionError
from vtcode.exec.exit_watch import ExitWatch
from vtcode.exec.output import SessionOutput
from vtcode.exec.progress import ProgressReporter, ProgressSink
from vtcode.exec.spawn import Spawned
from vtcode.exec.spool import SpoolWriter
from vtcode.exec.terminate import terminate_session

log = logging.getLogger(__name__)

# Chunks small enough to stay in the CPU cache while they are spooled, counted and previewed; several
# per wake-up so a fast producer does not pay one event-loop round per chunk.
READ_SIZE = 256 * 1024
READS_PER_WAKEUP = 8
# After the processes were killed, how long end of file may take before the stream is cut off.
_DRAIN_AFTER_KILL_SECONDS = 1.0
# A command that does not read its input must not hold a call forever.
_WRITE_TIMEOUT_SECONDS = 10.0
_CUT_OFF = "the output stream was still held open when the session ended; the spool stops there"


@dataclass(frozen=True)
class CallReport:
    """The state after a call, the preview of the output it collected, and how long it took."""

    view: SessionView
    preview: Preview
    wall_time: float


class CommandSession:
    """A running (or finished, not yet collected) command."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        info: CommandInfo,
        marker: str,
        spawned: Spawned,
        spool: SpoolWriter,
    ) -> None:
        self.info = info
        self.id = info.session_id
        # Tags every process of the session (`exec.process_group`), so a kill finds them all.
        self.marker = marker
        self.pid = spawned.popen.pid
        self.pgid = spawned.pgid
        self.output = SessionOutput(spool)
        self.returncode: int | None = None
        self.exited_at: float | None = None
        # The model has been told that the shell exited (later calls wait for the drain instead).
        self.exit_reported = False
        # Model calls waiting on this session right now (an interrupt ends the sessions it waited on).
        self.calls_in_flight = 0
        self._loop = loop
        self._popen = spawned.popen
        self._out_fd: int | None = spawned.output_fd
        self._in_fd: int | None = spawned.input_fd
        self._waiters: list[asyncio.Future[None]] = []
        loop.add_reader(spawned.output_fd, self._on_readable)
        self._exit_watch = ExitWatch(loop, spawned.popen, self._on_exit)

    @property
    def finished(self) -> bool:
        """The shell exited and its output stream is closed (drained, or cut off by a kill)."""
        return self.returncode is not None and self._out_fd is None

    # Events -----------------------------------------------------------------------------------

    def _on_readable(self) -> None:
        for _ in range(READS_PER_WAKEUP):
            fd = self._out_fd
            if fd is None:
                return
            try:
                data = os.read(fd, READ_SIZE)
            except BlockingIOError:
                return
            except OSError as exc:
                # A PTY master reports EIO once no process holds the terminal any more: end of file.
                if exc.errno != errno.EIO:
                    log.debug("reading session %s failed: %s", self.id, exc)
                data = b""
            if not data:
                self._close_output()
                self.output.end()
                self._notify()
                return
            self.output.feed(data)
            if len(data) < READ_SIZE:
                return

    def _on_exit(self, returncode: int) -> None:
        self.returncode = returncode
        self.exited_at = self._loop.time()
        self._notify()

    def _notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _changed(self, within: float) -> None:
        waiter: asyncio.Future[None] = self._loop.create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(within):
                await waiter
        except TimeoutError:
            pass
        finally:
            self._waiters.remove(waiter)

    # Calls ------------------------------------------------------------------------------------

    async def settle(self, deadline: float) -> None:
        """Block until the call should return: exit (and drain), or `deadline` (loop time)."""
        while True:
            now = self._loop.time()
            at = return_at(
                now=now,
                deadline=deadline,
                exited_at=self.exited_at,
                drained=self.output.drained,
                exit_reported=self.exit_reported,
            )
            if at <= now:
                return
            await self._changed(at - now)

    async def call(
        self,
        kind: CallKind,
        *,
        started: float,
        deadline: float,
        limit: int,
        sink: ProgressSink | None = None,
        chars: str = "",
    ) -> CallReport:
        """Carry out one model call: write `chars`, or kill, then wait and collect new output."""
        self.calls_in_flight += 1
        try:
            if kind == "kill":
                await self.terminate()
            else:
                if chars:
                    await self.write(chars)
                with self.reporting(sink):
                    await self.settle(deadline)
        finally:
            self.calls_in_flight -= 1
        preview = self.output.take(limit)
        view = self.view()
        if self.returncode is not None:
            self.exit_reported = True
        return CallReport(view=view, preview=preview, wall_time=self._loop.time() - started)

    @contextmanager
    def reporting(self, sink: ProgressSink | None) -> Iterator[None]:
        """Report live output to `sink` (if any) inside this block."""
        if sink is None:
            yield
            return
        reporter = ProgressReporter(self._loop, sink, self.id, self.info.command)
        self.output.progress = reporter
        try:
            yield
        finally:
            self.output.progress = None
            reporter.close()

    def close_input(self) -> None:
        """End the command's input: it reads end of file, and later writes are refused (pipes only)."""
        fd = self._in_fd
        if fd is None or fd == self._out_fd:
            return
        self._in_fd = None
        self._loop.remove_writer(fd)
        os.close(fd)

    async def write(self, chars: str) -> None:
        """Send `chars` verbatim to the command's input (no newline is added)."""
        view = memoryview(chars.encode("utf-8"))
        try:
            async with asyncio.timeout(_WRITE_TIMEOUT_SECONDS):
                while view:
                    fd = self._in_fd
                    if fd is None:
                        raise SessionError(
                            f"exec session '{self.id}' is no longer writable: its input is closed"
                        )
                    try:
                        written = os.write(fd, view)
                    except BlockingIOError:
                        await self._writable(fd)
                        continue
                    view = view[written:]
        except TimeoutError:
            raise SessionError(
                f"exec session '{self.id}' is not reading its input: {len(view)} bytes were not sent "
                f"within {_WRITE_TIMEOUT_SECONDS:g} s"
            ) from None
        except OSError as exc:
            raise SessionError(f"exec session '{self.id}' is no longer writable: {exc.strerror}") from None

    async def _writable(self, fd: int) -> None:
        ready: asyncio.Future[None] = self._loop.create_future()

        def on_writable() -> None:
            if not ready.done():
                ready.set_result(None)

        self._loop.add_writer(fd, on_writable)
        try:
            await ready
        finally:
            if self._in_fd == fd:
                self._loop.remove_writer(fd)

    async def terminate(self) -> None:
        """End every process of the session (TERM, then KILL after 500 ms) and finish its output."""
        leader = self.pid if self.returncode is None else None
        await terminate_session(self.pgid, self.marker, leader=leader)
        end = self._loop.time() + _DRAIN_AFTER_KILL_SECONDS
        while not self.finished:
            left = end - self._loop.time()
            if left <= 0:
                break
            await self._changed(left)
        if not self.output.drained:
            self._cut_off()

    # State ------------------------------------------------------------------------------------

    def view(self) -> SessionView:
        """The session as a result shows it."""
        info = self.info
        code = self.returncode
        # Queued spool writes land first, so the state (and any partial snapshot) is current.
        self.output.spool.sync()
        return SessionView(
            session_id=self.id,
            command=info.command,
            backend=info.backend,
            working_directory=info.working_directory,
            returncode=code,
            signal_name=signal.Signals(-code).name if code is not None and code < 0 else None,
            drained=self.output.drained,
            total_output_bytes=self.output.total_bytes,
            output_truncated=self.output.ever_truncated,
            spool=self.output.spool.state,
            spool_path=self.output.spool.relpath,
            spool_advertise=info.spool_advertise,
            spool_threshold=info.spool_threshold,
            rows=info.rows,
            cols=info.cols,
        )

    def _close_output(self) -> None:
        fd, self._out_fd = self._out_fd, None
        if fd is None:
            return
        # Remove the reader before closing: a reused fd number would otherwise never fire again.
        self._loop.remove_reader(fd)
        if fd == self._in_fd:
            self._loop.remove_writer(fd)
            self._in_fd = None
        os.close(fd)

    def _cut_off(self) -> None:
        self._close_output()
        self.output.spool.abandon(_CUT_OFF)

    def close(self) -> None:
        """Release descriptors and watchers; the processes must already be gone or left on purpose."""
        self._exit_watch.close()
        if not self.output.drained:
            self._cut_off()
        fd, self._in_fd = self._in_fd, None
        if fd is not None:
            self._loop.remove_writer(fd)
            os.close(fd)
        if self.returncode is None:
            self.returncode = self._popen.poll()
