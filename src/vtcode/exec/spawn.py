"""Starting a command session's shell: pipes by default, a pseudo-terminal with `tty`.

Pipes are about ten times faster than a PTY (reference python-stack.md section 5), so a PTY is used only
when asked for. Either way the shell leads a new session and process group, stdout and stderr are one
stream, and stdin stays open for `write_stdin`.

Between fork and exec the child arms a parent-death signal (so `kill -9` of vtcode takes the shell
with it) and, under the sandbox, enters it (exec.sandbox). That code runs as a `preexec_fn`: only
syscalls through functions and arguments prepared before the fork, no imports, no locks, so it is safe
even though vtcode may have other threads. The parent-death signal fires when the *thread* that spawned
the child ends, so commands must be spawned from the event-loop thread (as the session manager does),
never from a short-lived worker thread.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from vtcode.core.exec.result import Backend
from vtcode.exec.process_group import SESSION_ENV

# Bigger pipe buffers mean fewer wake-ups per megabyte (the kernel caps this at pipe-max-size).
_PIPE_SIZE = 1 << 20
_F_SETPIPE_SZ = 1031

# `setsid --ctty` makes the PTY the shell's controlling terminal, so Ctrl-C (`\x03`), job control and
# programs that open /dev/tty behave as in a real terminal.
_SETSID = next((p for p in ("/usr/bin/setsid", "/bin/setsid") if os.access(p, os.X_OK)), None)

_PR_SET_PDEATHSIG = 1
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
# Exit status of a child that could not enter the sandbox (as a shell's "found but not executable").
SETUP_FAILED_EXIT = 126


@dataclass(frozen=True)
class SpawnRequest:
    """Everything needed to start one session's shell."""

    command: str
    cwd: Path
    env: Mapping[str, str]
    shell: str
    tty: bool = False
    rows: int = 24
    cols: int = 80
    # Runs in the child before exec (the sandbox); an OSError from it ends the child with a message.
    confine: Callable[[], None] | None = None
    # The sandbox's file system root as seen from vtcode: a PTY is then made in its private /dev/pts.
    pty_root: str | None = None


@dataclass
class Spawned:
    """A started shell and the descriptors vtcode keeps: output to read, input to write."""

    popen: subprocess.Popen[bytes]
    output_fd: int
    input_fd: int
    backend: Backend

    @property
    def pgid(self) -> int:
        """The shell leads its own process group."""
        return self.popen.pid


def session_env(
    base: Mapping[str, str], workspace: Path, marker: str, *, shell: str, tty: bool, rows: int, cols: int
) -> dict[str, str]:
    """The child's environment: the parent's without API keys, pagers and colours off, the marker.

    A command's output reaches the model, the session files and the spool; an `env` run (or a
    prompt-injected one) must not put the user's provider keys there.
    """
    env = {key: value for key, value in base.items() if not key.endswith("_API_KEY")}
    env.update(
        {
            "WORKSPACE_DIR": str(workspace),
            "PAGER": "cat",
            "GIT_PAGER": "cat",
            "NO_COLOR": "1",
            "CARGO_TERM_COLOR": "never",
            "SHELL": shell,
        }
    )
    if tty:
        env.update(
            {
                "TERM": "xterm-256color",
                "COLUMNS": str(cols),
                "LINES": str(rows),
                "LESS": "R",
                "CLICOLOR": "0",
                "CLICOLOR_FORCE": "0",
                "LS_COLORS": "",
            }
        )
    env[SESSION_ENV] = marker
    return env


def spawn(request: SpawnRequest) -> Spawned:
    """Start the shell running `request.command`; raises OSError when it cannot be started."""
    return _spawn_pty(request) if request.tty else _spawn_pipes(request)


def child_preexec(confine: Callable[[], None] | None) -> Callable[[], None]:
    """What the child runs between fork and exec: `confine`, then the parent-death signal."""
    parent = os.getpid()
    libc = _LIBC

    def run() -> None:
        try:
            if confine is not None:
                confine()
            if libc is not None and libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
        except OSError as exc:
            os.write(2, f"vtcode: the command could not be started in its sandbox: {exc}\n".encode())
            os._exit(SETUP_FAILED_EXIT)
        if os.getppid() != parent:
            # vtcode died before the signal was armed: it would never come.
            os._exit(1)

    return run


def _spawn_pipes(request: SpawnRequest) -> Spawned:
    out_read, out_write = os.pipe2(os.O_CLOEXEC)
    in_read, in_write = os.pipe2(os.O_CLOEXEC)
    with contextlib.suppress(OSError):
        fcntl.fcntl(out_read, _F_SETPIPE_SZ, _PIPE_SIZE)
    try:
        popen = subprocess.Popen(
            [request.shell, "-c", request.command],
            stdin=in_read,
            stdout=out_write,
            stderr=out_write,
            cwd=request.cwd,
            env=dict(request.env),
            start_new_session=True,
            preexec_fn=child_preexec(request.confine),  # noqa: PLW1509 - syscalls only
        )
    except BaseException:
        for fd in (out_read, out_write, in_read, in_write):
            os.close(fd)
        raise
    # Only the child may hold the write end, or end of file never comes.
    os.close(out_write)
    os.close(in_read)
    os.set_blocking(out_read, False)
    os.set_blocking(in_write, False)
    return Spawned(popen=popen, output_fd=out_read, input_fd=in_write, backend="pipe")


_TIOCSPTLCK = 0x40045431
_TIOCGPTPEER = 0x5441


def open_pty(root: str | None = None) -> tuple[int, int]:
    """A PTY pair (close-on-exec), made in the /dev/pts of the file system at `root` when given."""
    if root is None:
        return os.openpty()
    master = os.open(f"{root}/dev/ptmx", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        fcntl.ioctl(master, _TIOCSPTLCK, struct.pack("i", 0))
        # The peer is opened through the master, not by a path the host cannot resolve.
        slave = int(fcntl.ioctl(master, _TIOCGPTPEER, os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC))
    except BaseException:
        os.close(master)
        raise
    return master, slave


@contextlib.contextmanager
def child_terminal(root: str | None = None) -> Iterator[tuple[int, int]]:
    """A PTY pair (`open_pty`) to start a child on: both ends closed if the start fails, the slave after.

    Once the child holds the slave end, vtcode must not: the master reads end of file only when the
    last process with the terminal open is gone.
    """
    master, slave = open_pty(root)
    try:
        yield master, slave
    except BaseException:
        os.close(master)
        os.close(slave)
        raise
    os.close(slave)


def _spawn_pty(request: SpawnRequest) -> Spawned:
    with child_terminal(request.pty_root) as (master, slave):
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", request.rows, request.cols, 0, 0))
        argv = [request.shell, "-c", request.command]
        if _SETSID is not None:
            # setsid(1) only forks when it already leads a group, so the child must start in ours
            # and become a session leader (and take the terminal) itself, before running the shell.
            argv = [_SETSID, "--ctty", *argv]
        popen = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=request.cwd,
            env=dict(request.env),
            start_new_session=_SETSID is None,
            preexec_fn=child_preexec(request.confine),  # noqa: PLW1509 - syscalls only
        )
    os.set_blocking(master, False)
    os.set_inheritable(master, False)
    return Spawned(popen=popen, output_fd=master, input_fd=master, backend="pty")
