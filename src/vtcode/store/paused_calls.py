"""Tool calls a paused turn left waiting for approval, in the session's `paused_calls.json`.

A call moves pending -> allowed | denied (the program decided) -> running (written before it starts)
-> done (its result is kept until the history holds it). Each change is read-modify-write under an
exclusive `flock` and an atomic replace, like the steering envelope (`store.intents`), so a decision
survives a crash and a call that was running when the process died is never started again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import msgspec

from vtcode.protocol.errors import UsageError
from vtcode.store.state_file import read_state_file, write_state_file
from vtcode.store.writer_lock import writer_lock

PAUSED_FILE = "paused_calls.json"
LOCK_FILE = "paused_calls.lock"
SCHEMA_VERSION = 1

CallState = Literal["pending", "allowed", "denied", "running", "done"]
# How far an allow reaches: this call, every later call of the tool, or commands with the prefix.
Remember = Literal["once", "tool", "prefix"]


class PausedCall(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One call of the model's reply that waits for (or got) the program's decision."""

    request_id: str
    call_id: str
    tool: str
    arguments: str
    display: str
    kind: str = "command"
    reason: str = ""
    state: CallState = "pending"
    # An allow that also allows every later call of the tool ("tool") or commands with the prefix.
    remember: Remember = "once"
    session_prefix: str = ""
    deny_reason: str = ""
    # Once done: what the model reads about the call.
    result: str = ""


class PausedCalls(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The file's content."""

    calls: tuple[PausedCall, ...] = ()
    schema_version: int | None = SCHEMA_VERSION


_DECODER = msgspec.json.Decoder(PausedCalls)


def no_paused_call(request_id: str) -> UsageError:
    """The error for deciding `request_id` when no call of that id waits for a decision."""
    return UsageError(
        f"no paused call {request_id!r} waits for a decision",
        hint="Session.pending_approvals lists the ones that do",
    )


class PausedCallStore:
    """The paused calls of the session stored in `directory`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def read(self) -> tuple[PausedCall, ...]:
        """The calls as stored (none when the file does not exist); raises `StoreError`."""
        stored = read_state_file(
            self.directory / PAUSED_FILE,
            _DECODER,
            name=PAUSED_FILE,
            newest=SCHEMA_VERSION,
            damaged_hint=f"remove {PAUSED_FILE} to drop the paused calls (the model is told nothing ran)",
            newer_hint="resume this session with the vtcode that paused it",
        )
        return stored.calls if stored is not None else ()

    def update(
        self, change: Callable[[tuple[PausedCall, ...]], tuple[PausedCall, ...]]
    ) -> tuple[PausedCall, ...]:
        """Apply `change` under the lock and write the result durably (the file goes when empty)."""
        with writer_lock(self.directory / LOCK_FILE):
            before = self.read()
            after = change(before)
            if after != before:
                path = self.directory / PAUSED_FILE
                if after:
                    write_state_file(path, PausedCalls(calls=after))
                else:
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()
            return after

    def decide(
        self,
        request_id: str,
        *,
        allow: bool,
        remember: Remember = "once",
        reason: str = "",
    ) -> PausedCall:
        """Record the decision on a call not yet run, durably (raises `UsageError` for any other)."""
        decided: list[PausedCall] = []

        def change(calls: tuple[PausedCall, ...]) -> tuple[PausedCall, ...]:
            found = next((c for c in calls if c.request_id == request_id), None)
            if found is None or found.state not in ("pending", "allowed", "denied"):
                return calls
            state: CallState = "allowed" if allow else "denied"
            decided.append(msgspec.structs.replace(found, state=state, remember=remember, deny_reason=reason))
            return tuple(decided[0] if c.request_id == request_id else c for c in calls)

        self.update(change)
        if not decided:
            raise no_paused_call(request_id)
        return decided[0]
