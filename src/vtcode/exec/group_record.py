"""Process groups left behind by a vtcode that was killed (`kill -9`), found and ended at the next start.

The shell of every command dies with vtcode (its parent-death signal), but what it started in the
background (`python -m http.server &`) does not. So each vtcode keeps a small JSON record of its live
command groups in the session directory: the group, the session marker every descendant inherits
(exec.process_group.SESSION_ENV) and the start times of the leader and of vtcode itself. A later start
reads the records of the workspace's sessions; a record whose vtcode still runs (same pid, same start
time) is left alone; otherwise every process still carrying one of its markers, and started no earlier
than its group, is the same process and is ended. Start times are the kernel's (clock ticks since boot
in /proc/PID/stat), so a reused pid never matches.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import msgspec

from vtcode.exec.process_group import SESSION_ENV

log = logging.getLogger(__name__)

GROUP_RECORD_FILE = "exec_groups.json"
"""The record's name inside a session directory."""

_MARKER_PREFIX = f"{SESSION_ENV}=".encode()


def start_ticks(pid: int) -> int | None:
    """When the process started (clock ticks since boot), None when it is gone or unreadable."""
    raw = _proc_file(pid, "stat")
    if raw is None:
        return None
    # The command name may hold spaces and parentheses: fields are counted after the last ')'.
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


def _proc_file(pid: int, name: str) -> bytes | None:
    """The bytes of `/proc/PID/name`; None when the process is gone or the file unreadable."""
    try:
        with open(f"/proc/{pid}/{name}", "rb") as file:
            return file.read()
    except OSError:
        return None


def _marker(pid: int) -> str | None:
    raw = _proc_file(pid, "environ")
    if raw is None:
        return None
    for entry in raw.split(b"\0"):
        if entry.startswith(_MARKER_PREFIX):
            return entry[len(_MARKER_PREFIX) :].decode("utf-8", "replace")
    return None


@dataclass(frozen=True)
class RecordedGroup:
    """One live command group as recorded."""

    pgid: int
    marker: str
    started: int
    command: str


class GroupRecord:
    """The live command groups of this vtcode process, rewritten atomically on every change."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._owner = os.getpid()
        self._owner_started = start_ticks(self._owner)
        self._groups: dict[int, RecordedGroup] = {}

    def add(self, pgid: int, marker: str, command: str) -> None:
        """Record a group whose leader just started."""
        started = start_ticks(pgid)
        if started is None:
            return
        self._groups[pgid] = RecordedGroup(pgid=pgid, marker=marker, started=started, command=command)
        self._write()

    def remove(self, pgid: int) -> None:
        """Forget a group that is gone."""
        if self._groups.pop(pgid, None) is not None:
            self._write()

    def close(self) -> None:
        """Every group was ended: remove the record."""
        self._groups.clear()
        with contextlib.suppress(OSError):
            self.path.unlink()

    def _write(self) -> None:
        if not self._groups:
            with contextlib.suppress(OSError):
                self.path.unlink()
            return
        body = {
            "owner_pid": self._owner,
            "owner_started": self._owner_started,
            "groups": [vars(group) for group in self._groups.values()],
        }
        if not self.path.parent.is_dir():
            # The session directory appears with the first checkpoint; never create it ahead of the store.
            log.debug("session directory %s does not exist yet; groups not recorded", self.path.parent)
            return
        temporary = self.path.with_name(f".{self.path.name}.{self._owner}.tmp")
        try:
            temporary.write_text(json.dumps(body), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as exc:
            # A record that cannot be written only loses the cleanup after a crash; commands run on.
            log.warning("could not record command groups in %s: %s", self.path, exc)


class EndedGroup(msgspec.Struct, frozen=True):
    """A leftover group the sweep ended."""

    pgid: int
    command: str
    processes: int


def sweep_recorded_groups(records: Iterable[Path]) -> list[EndedGroup]:
    """End what the given records' dead vtcode processes left running; their records are removed."""
    stale: dict[str, RecordedGroup] = {}
    files: list[Path] = []
    for path in records:
        groups = _stale_groups(path)
        if groups is None:
            continue
        files.append(path)
        stale.update((group.marker, group) for group in groups)
    ended: dict[int, list[int]] = {}
    if stale:
        for pid in _pids():
            marker = _marker(pid)
            group = stale.get(marker) if marker is not None else None
            started = start_ticks(pid)
            if group is None or started is None or started < group.started:
                continue
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                ended.setdefault(group.pgid, []).append(pid)
    for path in files:
        with contextlib.suppress(OSError):
            path.unlink()
    by_pgid = {group.pgid: group for group in stale.values()}
    return [EndedGroup(pgid, by_pgid[pgid].command, len(pids)) for pgid, pids in sorted(ended.items())]


def _stale_groups(path: Path) -> list[RecordedGroup] | None:
    """The groups of a record whose vtcode is gone; None when it still runs or the file is unusable."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        owner, owner_started = int(body["owner_pid"]), body["owner_started"]
        groups = [
            RecordedGroup(
                pgid=int(g["pgid"]),
                marker=str(g["marker"]),
                started=int(g["started"]),
                command=str(g["command"]),
            )
            for g in body["groups"]
        ]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("ignoring the unreadable command-group record %s: %s", path, exc)
        return None
    if owner_started is not None and start_ticks(owner) == owner_started:
        return None  # that vtcode still runs: its groups are its own
    return groups


def _pids() -> list[int]:
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    own = os.getpid()
    return [int(name) for name in names if name.isdigit() and int(name) != own]


def describe(ended: list[EndedGroup]) -> str:
    """The notice for the user: what was ended and why."""
    parts = ", ".join(
        f"group {e.pgid} ({e.command[:40]}{'…' if len(e.command) > 40 else ''}; {e.processes} process"
        f"{'es' if e.processes != 1 else ''})"
        for e in ended
    )
    return (
        "ended command processes left running by an earlier vtcode in this workspace that was killed: "
        f"{parts}"
    )
