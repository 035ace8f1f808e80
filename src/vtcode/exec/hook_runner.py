"""Hook handler processes: one command, the event's JSON on stdin, the workspace as cwd, a timeout.

Exec form (`args` given) starts the program without a shell. A shell line made only of plain words
(no quoting, variables, globs, pipes or redirections) whose program is found on PATH is started the
same way, since a shell would only split and exec it: that saves one process per hook call. Anything
else runs under `/bin/sh -c`. Every handler leads its own process group, which a timeout or a cancel
kills whole (a hook's children cannot outlive it and hold its pipes open).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from vtcode.core.hooks.outcome import HookRun

# A shell line the fast path may split on spaces: words of these characters only.
_PLAIN_LINE = re.compile(r"[A-Za-z0-9_./:=@%+,-]+(?: +[A-Za-z0-9_./:=@%+,-]+)*")
# Words a shell treats specially as a command name (builtins without a program, keywords).
_SHELL_WORDS = frozenset(
    {
        "exit", "cd", "export", "set", "unset", ".", "source", "eval", "exec", "read", "return", "shift",
        "trap", "wait", "ulimit", "umask", "alias", "if", "for", "while", "until", "case", "function",
        "readonly", "local", "declare", "typeset", "times", "hash", "type", "command", "builtin",
    }
)  # fmt: skip
_MAX_OUTPUT = 4 * 1024 * 1024
_CHUNK = 64 * 1024
# Seconds to wait for a killed hook's pipes to close.
_GRACE = 5.0
# How often to look whether the hook exited while its pipes are open, and how long to read them after.
_POLL = 0.1
_LINGER = 1.0
# Readers of hooks that exited while a process they left running holds their pipes.
_DRAINING: set[asyncio.Future[Any]] = set()


def hook_argv(command: str, args: Sequence[str] | None, env: Mapping[str, str]) -> list[str]:
    """The argv a handler starts: exec form, a plain line split, or the line under `/bin/sh -c`."""
    if args is not None:
        return [command, *args]
    line = command.strip()
    if _PLAIN_LINE.fullmatch(line):
        words = line.split(" ")
        words = [w for w in words if w]
        if words[0] not in _SHELL_WORDS and "=" not in words[0]:
            program = shutil.which(words[0], path=env.get("PATH", os.defpath))
            if program is not None:
                return [program, *words[1:]]
    return ["/bin/sh", "-c", command]


async def run_hook(
    argv: Sequence[str], *, stdin: bytes, cwd: Path, env: dict[str, str], seconds: float
) -> HookRun:
    """Run one handler to its end (or its timeout) and collect what it printed."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
    except OSError as exc:
        return HookRun(exit_code=None, start_error=f"{argv[0]}: {exc.strerror or exc}")
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    # Our own readers rather than `communicate`: they keep draining past the cap (a paused pipe keeps
    # `wait()` from ever returning once the hook is killed) and keep only `_MAX_OUTPUT` bytes in memory.
    out, err = bytearray(), bytearray()
    close = _closer(proc)
    tasks = (
        asyncio.ensure_future(_feed(proc.stdin, stdin)),
        asyncio.ensure_future(_collect(proc.stdout, out, close)),
        asyncio.ensure_future(_collect(proc.stderr, err, close)),
    )
    try:
        async with asyncio.timeout(seconds):
            await _finished(proc, tasks)
    except TimeoutError:
        await _end(proc, tasks)
        return HookRun(exit_code=None, timed_out=True)
    except BaseException:
        # Cancelled (an interrupt, a spent SessionEnd budget): the hook's group ends with it.
        await asyncio.shield(_end(proc, tasks))
        raise
    return HookRun(
        exit_code=proc.returncode,
        stdout=bytes(out).decode("utf-8", "replace"),
        stderr=bytes(err).decode("utf-8", "replace"),
    )


async def _finished(proc: asyncio.subprocess.Process, tasks: Sequence[asyncio.Future[Any]]) -> None:
    """Wait until the hook exited and its pipes closed.

    A process the hook left running (`npm run dev &`) keeps its pipes open after it exited: `_LINGER`
    seconds after the exit the hook is done, and the pipes are drained in the background (so that
    process never blocks on a full pipe) until it closes them.
    """
    pending = set(tasks)
    while pending and proc.returncode is None:
        _, pending = await asyncio.wait(pending, timeout=_POLL)
    if pending:
        _, pending = await asyncio.wait(pending, timeout=_LINGER)
    if not pending:
        await proc.wait()
        return
    for task in pending:
        _DRAINING.add(task)
        task.add_done_callback(_DRAINING.discard)


async def _feed(pipe: asyncio.StreamWriter, data: bytes) -> None:
    """Write the event to the hook's stdin and close it (a hook that does not read it is fine)."""
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        pipe.write(data)
        await pipe.drain()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        pipe.close()


async def _collect(stream: asyncio.StreamReader, kept: bytearray, close: Callable[[], None]) -> None:
    """Put what a pipe gives into `kept`, up to `_MAX_OUTPUT` bytes; the rest is read and dropped.

    Stopped early (the hook was killed, or vtcode ends while a process the hook left running holds
    the pipe), it closes the pipes while the event loop still runs: a transport left to the garbage
    collector after the loop closed prints a traceback.
    """
    try:
        while chunk := await stream.read(_CHUNK):
            if len(kept) < _MAX_OUTPUT:
                kept += chunk[: _MAX_OUTPUT - len(kept)]
    except asyncio.CancelledError:
        close()
        raise


def _closer(proc: asyncio.subprocess.Process) -> Callable[[], None]:
    """Closes the process's pipes (asyncio's `Process` has no public way; its transport does)."""
    transport = getattr(proc, "_transport", None)
    close = getattr(transport, "close", None)
    return close if callable(close) else (lambda: None)


async def _end(proc: asyncio.subprocess.Process, tasks: Sequence[asyncio.Future[Any]]) -> None:
    """Kill the handler's process group and reap it.

    The readers go on draining until the pipes close; a descendant that left the group may hold them
    open, so after a grace period the hook is given up on (it is dead; only its pipes linger).
    """
    # Not `proc.kill()` as well: it polls (reaps) the child first, and asyncio's watcher, finding it
    # gone, prints "Unknown child process pid ..." to the user's terminal.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except PermissionError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    except ProcessLookupError:
        pass
    reaped = asyncio.ensure_future(proc.wait())
    await asyncio.wait([*tasks, reaped], timeout=_GRACE)
    for task in (*tasks, reaped):
        task.cancel()
    await asyncio.gather(*tasks, reaped, return_exceptions=True)
