"""One batch task's child process: its own process group, a wall-clock limit, nothing left behind.

The child (`vtcode exec`, `vtcode sandbox -- sh -c ...`) leads a new session. Every descendant
inherits a marker variable (`VTCODE_BATCH_TASK`), and the driver is a child subreaper (Linux), so a
descendant that left the group (`setsid`, a command session of vtcode's own) stays findable among
the driver's descendants. On the limit or an interrupt: SIGINT to the group (vtcode exec ends its
turn, its command sessions and writes its last events), a grace period, then SIGKILL of the group and
of every marked process. After any ending, marked leftovers are killed and reaped. A parent-death
signal takes the child with the driver should the driver itself be killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vtcode.exec.process_group import enable_subreaper, group_alive, signal_processes, subreaper_enabled
from vtcode.exec.spawn import child_preexec
from vtcode.exec.terminate import reap, wait_all_exited

BATCH_TASK_ENV = "VTCODE_BATCH_TASK"
"""Environment variable every process of one batch task carries ("<driver pid>:<random>")."""

_KILL_SETTLE_SECONDS = 2.0
# How long the child's output may keep flowing after it has exited and its processes were swept.
_DRAIN_SECONDS = 5.0
_READ_CHUNK = 1 << 16

# The batch children running now (their pids): the only direct children of the driver that are
# expected; any other one may be a task's orphan.
_live_children: set[int] = set()


@dataclass
class TaskControl:
    """How a driver stops a running task: `interrupt` (SIGINT, grace, SIGKILL) or `kill` (SIGKILL now)."""

    interrupt: asyncio.Event = field(default_factory=asyncio.Event)
    kill: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class ChildRun:
    """How a child ended: its exit status (128 + signal when killed by one) and why it was stopped."""

    exit_code: int
    timed_out: bool = False
    interrupted: bool = False
    killed: bool = False


async def run_child(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str],
    stdin: bytes,
    stdout_path: Path,
    stderr_path: Path,
    timeout_s: float,
    grace_s: float,
    control: TaskControl | None = None,
    on_line: Callable[[bytes], None] | None = None,
) -> ChildRun:
    """Run `argv` to its end or its limit; stdout and stderr go to the two files (appended).

    `on_line` sees each stdout line as it arrives. Raises OSError when the program cannot start. A
    cancelled call stops the child (SIGINT, grace, SIGKILL) before the cancellation propagates.
    """
    enable_subreaper()
    marker = f"{os.getpid()}:{uuid.uuid4().hex}"
    child_env = {**env, BATCH_TASK_ENV: marker}
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC
    out = os.open(stdout_path, flags, 0o644)
    try:
        err = os.open(stderr_path, flags, 0o644)
    except OSError:
        os.close(out)
        raise
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env=child_env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
            start_new_session=True,
            preexec_fn=child_preexec(None),
        )
    except BaseException:
        os.close(out)
        os.close(err)
        raise
    os.close(err)
    _live_children.add(proc.pid)
    pump = asyncio.create_task(_pump(proc, stdin, out, on_line))
    try:
        ended = await _wait_or_stop(proc, timeout_s, control)
        timed_out = ended == "timeout"
        killed = ended == "kill"
        if ended in ("timeout", "interrupt"):
            killed = await _interrupt(proc, marker, grace_s, control)
        elif killed:
            await _kill(proc, marker)
    except asyncio.CancelledError:
        await asyncio.shield(_interrupt(proc, marker, grace_s, None))
        raise
    finally:
        _live_children.discard(proc.pid)
        await _sweep(proc.pid, marker)
        # A process that escaped every search may still hold the output pipe open: stop reading then.
        done, _ = await asyncio.wait({pump}, timeout=_DRAIN_SECONDS)
        if not done:
            pump.cancel()
        await asyncio.gather(pump, return_exceptions=True)
        os.close(out)
    code = proc.returncode if proc.returncode is not None else -signal.SIGKILL
    return ChildRun(
        exit_code=128 - code if code < 0 else code,
        timed_out=timed_out,
        interrupted=ended == "interrupt",
        killed=killed,
    )


async def _pump(
    proc: asyncio.subprocess.Process,
    stdin: bytes,
    out: int,
    on_line: Callable[[bytes], None] | None,
) -> None:
    """Feed stdin, then copy stdout to the file line by line (so `on_line` sees whole lines)."""
    assert proc.stdin is not None
    assert proc.stdout is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        proc.stdin.write(stdin)
        await proc.stdin.drain()
    proc.stdin.close()
    while True:
        try:
            line = await proc.stdout.readline()
        except ValueError:
            # A line longer than the stream's limit: take what is buffered as it is.
            line = await proc.stdout.read(_READ_CHUNK)
        if not line:
            break
        _write_all(out, line)
        if on_line is not None:
            on_line(line)


async def _wait_or_stop(
    proc: asyncio.subprocess.Process, timeout_s: float, control: TaskControl | None
) -> str:
    """ "exit", "timeout", "interrupt" or "kill": whichever came first."""
    waiters: dict[asyncio.Task[object], str] = {asyncio.create_task(proc.wait()): "exit"}
    if control is not None:
        waiters[asyncio.create_task(control.interrupt.wait())] = "interrupt"
        waiters[asyncio.create_task(control.kill.wait())] = "kill"
    try:
        done, _ = await asyncio.wait(waiters, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in waiters:
            task.cancel()
    if not done:
        return "timeout"
    # The exit wins a tie: a task that ended as the limit struck has ended.
    reasons = {waiters[task] for task in done}
    for reason in ("exit", "kill", "interrupt"):
        if reason in reasons:
            return reason
    return "exit"


async def _interrupt(
    proc: asyncio.subprocess.Process, marker: str, grace_s: float, control: TaskControl | None
) -> bool:
    """SIGINT the group, wait up to `grace_s` (or a kill request), then SIGKILL; True when killed."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGINT)
    waiters: set[asyncio.Task[object]] = {asyncio.create_task(proc.wait())}
    if control is not None:
        waiters.add(asyncio.create_task(control.kill.wait()))
    try:
        await asyncio.wait(waiters, timeout=grace_s, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in waiters:
            task.cancel()
    if proc.returncode is not None:
        return False
    await _kill(proc, marker)
    return True


async def _kill(proc: asyncio.subprocess.Process, marker: str) -> None:
    targets = marked_processes(proc.pid, marker)
    signal_processes(proc.pid, targets, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(proc.pid, signal.SIGKILL)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), _KILL_SETTLE_SECONDS)


def _direct_children() -> set[int] | None:
    """This process's children, from /proc (None where that is not available)."""
    found: set[int] = set()
    try:
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/children", "rb") as listing:
                found.update(int(pid) for pid in listing.read().split())
    except (OSError, ValueError):
        return None
    return found


def _carries(pid: int, marker: str) -> bool:
    """Whether process `pid` carries the task's marker (True when its environment cannot be read)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            return f"{BATCH_TASK_ENV}={marker}".encode() in environ.read().split(b"\0")
    except FileNotFoundError:
        return False
    except OSError:
        return True


def _may_have_leftovers(pgid: int, marker: str) -> bool:
    """Whether a finished task can have processes left: its group has members, or an orphan of it.

    With the subreaper, every survivor of a task whose child has exited was re-parented to this
    process or descends from one that was; so when the group is empty and no direct child but the
    running batch children carries the task's marker, nothing of it is left and the walk of all
    processes is skipped.
    """
    if not subreaper_enabled() or group_alive(pgid):
        return True
    children = _direct_children()
    if children is None:
        return True
    return any(_carries(pid, marker) for pid in children - _live_children)


async def _sweep(pgid: int, marker: str) -> None:
    """Kill and reap whatever of the task is still running once its child has ended."""
    if not _may_have_leftovers(pgid, marker):
        return
    leftovers = marked_processes(pgid, marker)
    if not leftovers:
        return
    signal_processes(pgid, leftovers, signal.SIGKILL)
    await wait_all_exited(leftovers, _KILL_SETTLE_SECONDS)
    reap(leftovers)


def marked_processes(pgid: int, marker: str) -> set[int]:
    """Pids of the task's processes: members of group `pgid` and descendants carrying `marker`."""
    import psutil  # only when a task ends

    found: set[int] = set()
    try:
        candidates = psutil.Process().children(recursive=True)
    except psutil.Error:
        return found
    for proc in candidates:
        try:
            if os.getpgid(proc.pid) == pgid or proc.environ().get(BATCH_TASK_ENV) == marker:
                found.add(proc.pid)
        except (psutil.Error, OSError):
            continue
    return found


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
