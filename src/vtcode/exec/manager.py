"""The command sessions of one vtcode process: start, look up, collect, and end them all at exit.

Sessions outlive the call that started them and the turn too; they end when their command finishes
and the model has seen the end, when the model kills them, or when vtcode exits (SPEC section 8.5).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from vtcode.core.exec.wait import WAIT_CEILING_SECONDS, WAIT_DEFAULT_SECONDS
from vtcode.core.sandbox_policy import SandboxPolicy
from vtcode.exec.errors import SessionError
from vtcode.exec.group_record import GroupRecord
from vtcode.exec.process_group import enable_subreaper, group_alive, register, unregister
from vtcode.exec.sandbox import Sandbox, SandboxUnavailable
from vtcode.exec.shell import default_shell
from vtcode.exec.spool import SPOOL_DIR, SpoolWriter, remove_expired_spools
from vtcode.exec.terminate import reap_adopted, terminate_session

if TYPE_CHECKING:
    from vtcode.exec.session import CommandSession

log = logging.getLogger(__name__)

_ID_ATTEMPTS = 8
# A command that reads a spool must not get a spool reference of its own (a copy of a copy).
_SPOOL_MARKER = SPOOL_DIR.as_posix()


class ExecSettings(msgspec.Struct, frozen=True):
    """Limits and defaults of command sessions (from `[pty]`, `[timeouts]`, `[context.dynamic]`)."""

    max_sessions: int = 16
    spool_max_bytes: int = 512 * 1024 * 1024
    pty_enabled: bool = True
    rows: int = 24
    cols: int = 80
    shell: str | None = None
    spool_references: bool = True
    spool_threshold: int = 8192
    wait_default_seconds: int = WAIT_DEFAULT_SECONDS
    wait_ceiling_seconds: int = WAIT_CEILING_SECONDS
    subreaper: bool = True
    sandbox: SandboxPolicy = msgspec.field(default_factory=SandboxPolicy)
    # Kernel features to treat as missing (exec.sandbox.KNOWN_FEATURES), to exercise the fallbacks.
    sandbox_missing: frozenset[str] = frozenset()


def random_session_id() -> str:
    """`run-` and eight hex digits."""
    return f"run-{os.urandom(4).hex()}"


class _Leftover(msgspec.Struct, frozen=True):
    """A collected session whose group still had members (a daemon it started): killed at exit."""

    pgid: int
    marker: str


class SessionManager:
    """Every command session of one workspace in this process."""

    def __init__(
        self,
        workspace: Path,
        env: Mapping[str, str],
        settings: ExecSettings | None = None,
        *,
        new_id: Callable[[], str] = random_session_id,
        clock: Callable[[], float] = time.time,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.workspace = Path(os.path.realpath(workspace))
        self.settings = settings or ExecSettings()
        self._env = dict(env)
        self._new_id = new_id
        self._sessions: dict[str, CommandSession] = {}
        self._leftovers: list[_Leftover] = []
        self._known_groups: set[int] = set()
        self._closed = False
        self._record: GroupRecord | None = None
        self.sandbox = Sandbox(
            self.settings.sandbox, self.workspace, missing=self.settings.sandbox_missing, notify=notify
        )
        for path in remove_expired_spools(self.workspace, clock()):
            log.info("removed old command output %s", path)

    def record_groups_in(self, path: Path) -> None:
        """Keep the live command groups in `path`, so a later start can end them if vtcode is killed."""
        self._record = GroupRecord(path)
        for session in self._sessions.values():
            self._record.add(session.pgid, session.marker, session.info.command)
        for left in self._leftovers:
            self._record.add(left.pgid, left.marker, "")

    def _forget(self, pgid: int) -> None:
        unregister(pgid)
        if self._record is not None:
            self._record.remove(pgid)

    @property
    def sessions(self) -> Mapping[str, CommandSession]:
        """Sessions not collected yet, by id."""
        return self._sessions

    def live(self) -> list[CommandSession]:
        """Sessions whose command runs or whose output is still open."""
        return [s for s in self._sessions.values() if not s.finished]

    async def start(
        self,
        command: str,
        *,
        cwd: Path,
        working_directory: str,
        tty: bool,
        confined: bool = True,
        with_input: bool = True,
    ) -> CommandSession:
        """Start `command` in a new session; SessionError when a limit forbids it or it cannot start.

        `confined` False runs it outside the OS sandbox (a command the user typed, `!cmd`). Such a
        command, and one started `with_input` False, reads end of file at once and never runs on a
        terminal (whose one descriptor carries input and output alike).
        """
        with_input = with_input and confined
        if not with_input and tty:
            raise SessionError("a command without input cannot run on a terminal")
        # The session machinery (PTYs, output pumps, spawning) loads with the first command, not at
        # start-up.
        from vtcode.core.exec.result import CommandInfo
        from vtcode.exec.session import CommandSession
        from vtcode.exec.spawn import SpawnRequest, session_env, spawn

        if self._closed:
            raise SessionError("command sessions are shut down")
        settings = self.settings
        if tty and not settings.pty_enabled:
            raise SessionError("PTY sessions are disabled (pty.enabled = false); run the command without tty")
        live = self.live()
        if len(live) >= settings.max_sessions:
            running = ", ".join(f"{s.id} ({_short(s.info.command)})" for s in live)
            raise SessionError(
                f"Maximum command sessions ({settings.max_sessions}) reached; still running: {running}. "
                "Wait for one to finish (write_stdin action wait) or end one (write_stdin action kill)."
            )
        try:
            if confined:
                self.sandbox.prepare(self._env)
        except SandboxUnavailable as exc:
            raise SessionError(str(exc)) from None
        except OSError as exc:
            raise SessionError(f"the sandbox could not be prepared: {exc}") from None
        session_id = self._fresh_id()
        marker = f"{os.getpid()}:{session_id}"
        shell = default_shell(settings.shell)
        env = session_env(
            self._env, self.workspace, marker, shell=shell, tty=tty, rows=settings.rows, cols=settings.cols
        )
        request = SpawnRequest(
            command=command,
            cwd=cwd,
            env=env,
            shell=shell,
            tty=tty,
            rows=settings.rows,
            cols=settings.cols,
            confine=self.sandbox.child_setup(str(cwd)) if confined else None,
            pty_root=self.sandbox.pty_root() if confined else None,
        )
        if settings.subreaper:
            # Before the first spawn, so even its earliest orphans are re-parented to vtcode.
            enable_subreaper()
        spool = SpoolWriter(self.workspace, session_id, settings.spool_max_bytes)
        spool.open()
        try:
            spawned = spawn(request)
        except OSError as exc:
            spool.abandon("the command did not start")
            spool.path.unlink(missing_ok=True)
            raise SessionError(f"could not start the command: {exc.strerror or exc}") from None
        register(spawned.pgid, marker)
        if self._record is not None:
            self._record.add(spawned.pgid, marker, command)
        self._known_groups.add(spawned.pgid)
        info = CommandInfo(
            session_id=session_id,
            command=command,
            backend=spawned.backend,
            working_directory=working_directory,
            spool_advertise=settings.spool_references and _SPOOL_MARKER not in command,
            spool_threshold=settings.spool_threshold,
            rows=settings.rows if tty else None,
            cols=settings.cols if tty else None,
        )
        session = CommandSession(asyncio.get_running_loop(), info, marker, spawned, spool)
        if not with_input:
            # Nobody types into a `!cmd`, and outside the sandbox input the model sent (`write_stdin`)
            # would run unconfined (`!sh`, `!python3`): it reads end of file at once.
            session.close_input()
        self._sessions[session_id] = session
        return session

    def get(self, session_id: str) -> CommandSession:
        """The session with this id; SessionError when there is none (never started, or collected)."""
        session = self._sessions.get(session_id)
        if session is None:
            raise SessionError(
                f"exec session '{session_id}' not found: it never existed or it finished and its end was "
                "already reported"
            )
        return session

    def collect(self, session: CommandSession) -> None:
        """Drop a session once it finished and its end was reported; a daemon it left keeps running.

        Collecting never kills: a background server started with `&` and its own log outlives the
        session that started it (reference quirk Q9), and is ended when vtcode exits.
        """
        if not (session.finished and session.exit_reported) or session.id not in self._sessions:
            return
        del self._sessions[session.id]
        session.close()
        # Until shown empty, the group counts as a leftover (killed at exit). The check runs after the
        # result is out: scanning for adopted zombies first costs a millisecond or two.
        leftover = _Leftover(session.pgid, session.marker)
        self._leftovers.append(leftover)
        asyncio.get_running_loop().call_soon(self._release_group, leftover)

    def _release_group(self, leftover: _Leftover) -> None:
        self._sweep()
        if leftover in self._leftovers and not group_alive(leftover.pgid):
            self._leftovers.remove(leftover)
            self._forget(leftover.pgid)

    def waited_on(self) -> list[CommandSession]:
        """Sessions a model call is waiting on right now (what an interrupt stops)."""
        return [s for s in self._sessions.values() if s.calls_in_flight]

    async def discard(self, session: CommandSession) -> None:
        """End a session nobody can reach any more (its starting call was interrupted)."""
        self._sessions.pop(session.id, None)
        await session.terminate()
        session.close()
        self._forget(session.pgid)
        self._sweep()

    def _sweep(self) -> None:
        leaders = {s.pid for s in self._sessions.values() if s.returncode is None}
        reap_adopted(self._known_groups, leaders)

    def _fresh_id(self) -> str:
        candidate = ""
        for _ in range(_ID_ATTEMPTS):
            candidate = self._new_id()
            spool = self.workspace / SPOOL_DIR / f"{candidate}.log"
            if candidate not in self._sessions and not spool.exists():
                return candidate
        raise SessionError(f"exec session '{candidate}' already exists")

    async def aclose(self) -> None:
        """Terminate every session and leftover group (vtcode is exiting); safe to call twice."""
        self._closed = True
        sessions = list(self._sessions.values())
        self._sessions.clear()
        leftovers, self._leftovers = self._leftovers, []
        await asyncio.gather(
            *(s.terminate() for s in sessions),
            *(terminate_session(left.pgid, left.marker, leader=None) for left in leftovers),
            return_exceptions=True,
        )
        for session in sessions:
            session.close()
            unregister(session.pgid)
        for left in leftovers:
            unregister(left.pgid)
        reap_adopted(self._known_groups, ())
        self.sandbox.close()
        if self._record is not None:
            self._record.close()


def _short(command: str, limit: int = 40) -> str:
    return command if len(command) <= limit else command[: limit - 1] + "…"
