"""Textual's Linux terminal driver, made to survive the loss of its terminal.

When the terminal goes away (its window closed, the tmux server or ssh connection killed) the kernel
hangs it up: vtcode gets SIGHUP and SIGCONT, and every later write fails with EIO. Textual's driver
takes that SIGCONT for a return from Ctrl+Z and starts application mode a second time (a second writer
thread, a second reader of the same terminal); its writer thread then dies on the first failed write,
the next writes fill that thread's queue, and the one after blocks the event loop for good: the quit
that SIGHUP started never ends, and SIGTERM is never handled. Here writes to a lost terminal are
dropped, and SIGCONT restarts application mode only after the driver itself suspended it.
"""

from __future__ import annotations

from typing import Any, TextIO

from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver

from vtcode.tui.paste_guard import install as install_paste_guard


class TerminalOutput:
    """The terminal's output stream; once a write fails (the terminal is gone) later ones are dropped."""

    def __init__(self, file: TextIO) -> None:
        self._file = file
        self.lost = False

    def write(self, text: str) -> int:
        """Write `text`, or drop it once the terminal is lost."""
        if not self.lost:
            try:
                self._file.write(text)
            except (OSError, ValueError):
                # EIO from a hung-up terminal (ValueError: the stream was closed).
                self.lost = True
        return len(text)

    def flush(self) -> None:
        """Flush, unless the terminal is lost."""
        if not self.lost:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self.lost = True

    def fileno(self) -> int:
        """The terminal's file descriptor."""
        return self._file.fileno()


class TerminalDriver(LinuxDriver):
    """`LinuxDriver` that outlives a hung-up terminal (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self._file is not None:
            # Textual's writer thread only calls write, flush and fileno on it.
            output: Any = TerminalOutput(self._file)
            self._file = output

    def _sigcont_application(self, *args: Any) -> None:
        # Only a return from the driver's own suspend (Ctrl+Z) restarts application mode: a hang-up (or
        # a stray `kill -CONT`) comes with SIGCONT too, while application mode still runs.
        if self._must_signal_resume:
            super()._sigcont_application(*args)


def driver_class(chosen: type[Driver]) -> type[Driver]:
    """The driver to run with: `chosen`, or `TerminalDriver` in place of Textual's Linux driver (whose
    input then keeps a pasted ESC inside its paste)."""
    if chosen is not LinuxDriver:
        return chosen
    install_paste_guard()
    return TerminalDriver
