"""Attaching checkpoints to a session: the dispatcher's call boundary and the turn-start hook."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from vtcode.exec.git_repo import GitAccess
from vtcode.exec.manager import SessionManager
from vtcode.exec.shadow_git import ShadowGit
from vtcode.protocol.messages import Message
from vtcode.runtime.checkpoints import Checkpointer
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hooks import TurnHooks, TurnStart
from vtcode.runtime.stored_history import StoredHistory
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.store.checkpoints import CheckpointStore

if TYPE_CHECKING:
    from vtcode.runtime.checkpoint_gc import GcReport
    from vtcode.runtime.wiring import SessionOptions


def attach_checkpoints(
    options: SessionOptions,
    *,
    thread_id: str,
    dispatcher: ToolDispatcher,
    hooks: TurnHooks,
    history: StoredHistory,
    access: GitAccess,
    emitter: Emitter,
    clock: Callable[[], float],
    commands: SessionManager | None = None,
) -> Checkpointer | None:
    """Record this session's checkpoints (None for an ephemeral session, which keeps nothing)."""
    if options.ephemeral:
        return None
    settings = options.settings.checkpoints
    shadow = (
        ShadowGit(options.home, options.workspace, options.env, index_name=thread_id)
        if settings.tree
        else None
    )

    def history_seq() -> int:
        handle = history.handle
        return handle.last_seq if handle is not None else 0

    def prune(quota: int) -> GcReport:
        # Only a session over the quota collects: the collector is not part of every start-up.
        from vtcode.runtime.checkpoint_gc import collect

        return collect(
            options.home, options.env, keep_days=settings.keep_days, clock=clock, quota_bytes=quota,
            keep_session=thread_id, keep_workspace=options.workspace,
        )  # fmt: skip

    checkpointer = Checkpointer(
        store=CheckpointStore(options.home, thread_id),
        workspace=options.workspace,
        settings=settings,
        shadow=shadow,
        user_git=access if access.location is not None else None,
        emitter=emitter,
        history_seq=history_seq,
        clock=clock,
        prune=prune,
        extra_roots=options.added_dirs,
        jobs_running=lambda: commands is not None and bool(commands.live()),
    )
    dispatcher.checkpoints = checkpointer

    async def turn_start(start: TurnStart) -> Sequence[Message]:
        return await checkpointer.turn_start(start.turn, start.text)

    hooks.turn_start.append(turn_start)
    return checkpointer
