"""The environment context item: where the session runs, told to the model in a cache-stable place.

It travels as a user-role message marked `kind="context"` at the start of a session (and again when a
resumed session finds the text changed: another workspace, another day, another branch), never in the
static system prompt, whose bytes must not change between sessions (SPEC section 4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from vtcode.config.schema import Settings
from vtcode.core.environment_context import ContextParts, render_environment_context
from vtcode.exec.environment_facts import gather_environment
from vtcode.exec.git_query import GitQuery
from vtcode.protocol.messages import Message, MessageMeta, UserMessage


def environment_context(
    settings: Settings, workspace: Path, clock: Callable[[], float], git: GitQuery | None = None
) -> str:
    """The context text for a session in `workspace` now (runs git unless `git` is what it said: call
    it off the event loop)."""
    facts = gather_environment(
        workspace,
        clock=clock,
        approval=settings.agent.approval,
        sandbox=settings.sandbox.mode,
        shell=settings.pty.preferred_shell,
        git=git,
    )
    parts = ContextParts(
        temporal=settings.agent.include_temporal_context,
        working_directory=settings.agent.include_working_directory,
    )
    return render_environment_context(facts, parts)


def context_message(text: str, history: Sequence[Message], now: float) -> UserMessage | None:
    """The context item to add before the next turn, or None when the history already says the same."""
    last = next(
        (m for m in reversed(history) if isinstance(m, UserMessage) and m.meta.kind == "context"), None
    )
    if last is not None and last.content == text:
        return None
    return UserMessage(text, meta=MessageMeta(kind="context", created_at=now))
