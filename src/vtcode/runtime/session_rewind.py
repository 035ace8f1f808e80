"""Rewind as an operation on a live session, shared by the TUI and ACP (`vtcode rewind` is headless).

The work is `runtime.rewind`'s; this adds what a live session needs: no rewind while a turn runs, a
fresh snapshot afterwards (so the restored files are not taken for the next command's doing), and the
outcome reported as an event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vtcode.core.rewind_plan import PlannedPath, summary
from vtcode.protocol.errors import UsageError
from vtcode.runtime.checkpoints import NOT_COVERED, Checkpointer
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.rewind import RewindResult, RewindTarget, Scope, redo, rewind, turn_files, user_turns

if TYPE_CHECKING:
    from vtcode.runtime.wiring import Wiring


@dataclass(frozen=True)
class TurnChoice:
    """A user turn one can rewind to: its prompt and the files it changed."""

    turn: int
    prompt: str
    files: tuple[str, ...]


class SessionRewinds:
    """`/rewind` and `/redo` on one open session."""

    def __init__(
        self,
        target: RewindTarget,
        emitter: Emitter,
        *,
        busy: Callable[[], bool],
        checkpointer: Checkpointer | None,
    ) -> None:
        self.target = target
        self._emitter = emitter
        self._busy = busy
        self._checkpointer = checkpointer

    @property
    def covers_commands(self) -> bool:
        """Whether command side effects are captured (else the front end says they are not)."""
        return self._checkpointer is not None and self._checkpointer.covers_commands

    def turns(self) -> list[TurnChoice]:
        """The checkpointed user turns, oldest first."""
        files = turn_files(self.target.store)
        return [TurnChoice(t.turn, t.prompt, tuple(files.get(t.turn, ()))) for t in user_turns(self.target)]

    async def preview(self, turn: int, scope: Scope) -> RewindResult:
        """What rewinding to `turn` would do (nothing changes)."""
        return await asyncio.to_thread(rewind, self.target, turn, scope, apply=False)

    async def apply(self, turn: int, scope: Scope, *, force: bool = False) -> RewindResult:
        """Rewind to the start of `turn`; raises `VtcodeError` (a running turn, an unknown turn)."""
        self._idle()
        result = await asyncio.to_thread(rewind, self.target, turn, scope, apply=True, force=force)
        await self._after(result)
        return result

    async def redo(self, *, force: bool = False) -> RewindResult:
        """Undo the last rewind's file changes."""
        self._idle()
        result = await asyncio.to_thread(redo, self.target, apply=True, force=force)
        await self._after(result)
        return result

    def _idle(self) -> None:
        if self._busy():
            raise UsageError("a turn is running", hint="rewind when it ends, or interrupt it first")

    async def _after(self, result: RewindResult) -> None:
        if self._checkpointer is not None:
            await self._checkpointer.rebase()
        self._emitter.inform(result_text(result))


def preview_text(planned: Sequence[PlannedPath], *, code: bool, covers_commands: bool) -> str:
    """The preview people confirm: counts, then each path with its action and conflicts flagged."""
    lines: list[str] = []
    if code:
        counts = summary(planned)
        lines.append(
            f"{counts['modify']} to modify, {counts['create']} to create, {counts['delete']} to delete"
        )
        for entry in planned:
            flag = "  CONFLICT: edited by hand since vtcode wrote it; kept" if entry.conflict else ""
            lines.append(f"  {entry.action:<6} {entry.path}{flag}")
    if not covers_commands:
        lines.append(f"note: {NOT_COVERED}")
    return "\n".join(lines)


def result_text(result: RewindResult) -> str:
    """One notice about a rewind or redo that was applied."""
    parts = [f"restored {len(result.applied)} file(s)"]
    if result.kept_conflicts:
        parts.append(f"kept {len(result.kept_conflicts)} edited by hand: {', '.join(result.kept_conflicts)}")
    if result.failed:
        parts.append(f"could not restore: {', '.join(result.failed)}")
    if result.fork_id is not None:
        parts.append(f"the conversation continues in session {result.fork_id}")
    if result.turn is not None:
        parts.insert(0, f"rewound to before turn {result.turn.turn}")
    else:
        parts.insert(0, "redone")
    return "; ".join(parts)


def session_rewinds(
    wiring: Wiring,
    emitter: Emitter,
    *,
    busy: Callable[[], bool],
    clock: Callable[[], float],
    new_id: Callable[[], str],
) -> SessionRewinds:
    """The rewinds of the session `wiring` makes up."""
    options = wiring.options
    target = RewindTarget(options.home, wiring.thread_id, options.workspace, options.env, clock, new_id)
    return SessionRewinds(target, emitter, busy=busy, checkpointer=wiring.dispatcher.checkpoints)
