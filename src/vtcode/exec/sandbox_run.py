"""`vtcode sandbox -- CMD`: one command under the configured sandbox, attached to the terminal.

The command runs in a new session. When vtcode's input is a terminal, the command gets a terminal of
its own (a PTY in the sandbox's /dev/pts) and vtcode relays bytes and window sizes between the two:
the command can neither type into the user's shell (TIOCSTI works only on one's own controlling
terminal) nor take its foreground. Without a terminal it simply has none.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
import termios
import tty
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from vtcode.core.sandbox_policy import SandboxPolicy
from vtcode.exec.sandbox import Sandbox
from vtcode.exec.spawn import child_preexec, child_terminal


def run_confined(
    argv: Sequence[str],
    *,
    workspace: Path,
    env: Mapping[str, str],
    policy: SandboxPolicy,
    missing: frozenset[str] = frozenset(),
    notify: Callable[[str], None] | None = None,
) -> int:
    """Run `argv` in `workspace` under `policy` and return its exit status (128 + signal when killed).

    Raises SandboxUnavailable when the policy cannot be enforced, OSError when the program cannot start.
    """
    sandbox = Sandbox(policy, workspace, missing=missing, notify=notify)
    child_env = {key: value for key, value in env.items() if not key.endswith("_API_KEY")}
    try:
        sandbox.prepare(child_env)
        confine = sandbox.child_setup(str(sandbox.workspace))
        # The terminal's Ctrl-C reaches the command itself; vtcode only waits for it to end.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            if os.isatty(0):
                code = _run_on_own_terminal(argv, sandbox, child_env, confine)
            else:
                proc = subprocess.Popen(
                    list(argv),
                    cwd=sandbox.workspace,
                    env=child_env,
                    start_new_session=True,
                    preexec_fn=_with_default_sigint(child_preexec(confine)),  # noqa: PLW1509 - syscalls only
                )
                code = proc.wait()
        finally:
            signal.signal(signal.SIGINT, previous)
    finally:
        sandbox.close()
    return 128 - code if code < 0 else code


def _with_default_sigint(setup: Callable[[], None], *, take_terminal: bool = False) -> Callable[[], None]:
    def run() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if take_terminal:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        setup()

    return run


def _run_on_own_terminal(
    argv: Sequence[str], sandbox: Sandbox, env: Mapping[str, str], confine: Callable[[], None] | None
) -> int:
    with child_terminal(sandbox.pty_root()) as (master, slave):
        _copy_size(0, slave)
        proc = subprocess.Popen(
            list(argv),
            cwd=sandbox.workspace,
            env=dict(env),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=_with_default_sigint(child_preexec(confine), take_terminal=True),  # noqa: PLW1509
        )
    saved = termios.tcgetattr(0)
    resized = signal.signal(signal.SIGWINCH, lambda *_: _copy_size(0, master))
    try:
        # TCSANOW: keys typed before the command started still reach it.
        tty.setraw(0, termios.TCSANOW)
        _relay(master, proc)
    finally:
        termios.tcsetattr(0, termios.TCSADRAIN, saved)
        signal.signal(signal.SIGWINCH, resized)
        os.close(master)
    return proc.wait()


def _copy_size(source: int, target: int) -> None:
    with contextlib.suppress(OSError):
        size = fcntl.ioctl(source, termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(target, termios.TIOCSWINSZ, size)


def _relay(master: int, proc: subprocess.Popen[bytes]) -> None:
    """Copy the user's keys to the command's terminal and its output back, until the terminal closes."""
    reading_input = True
    while True:
        watched = [master, 0] if reading_input else [master]
        try:
            ready, _, _ = select.select(watched, [], [], 0.2)
        except InterruptedError:
            continue
        if master in ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""  # EIO: every holder of the terminal closed it
            if not data:
                return
            _write_all(1, data)
        if 0 in ready:
            data = os.read(0, 65536)
            if data:
                _write_all(master, data)
            else:
                reading_input = False
        if not ready and proc.poll() is not None and not _pending(master):
            return


def _pending(fd: int) -> bool:
    ready, _, _ = select.select([fd], [], [], 0)
    return bool(ready)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
