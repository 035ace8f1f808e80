"""Continuing a subagent by its id (`task(resume=...)`): its past conversation, found in this process or
in the parent session's store (`<parent>/sessions/<agent_id>/`, so also after `vtcode exec --resume`).

A child starts with a fresh context, which is what makes "continue the previous task" briefs fail
(reference extensibility.md 3.3, first complaint); a resumed child instead keeps everything it read and
did, and the parent only sends what is new.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path

import msgspec

from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.messages import Message, ToolResultMessage
from vtcode.runtime.turn import ConversationState
from vtcode.store.session import SessionHandle, SessionStore

_AGENT_ID = re.compile(r"agent-[0-9a-f]{6,32}")


class PastChild(msgspec.Struct):
    """A child to continue: its type (None when only its transcript is known), conversation and files."""

    agent_id: str
    agent_type: str | None
    state: ConversationState
    handle: SessionHandle | None = None
    notices: list[str] = msgspec.field(default_factory=list)


class ChildRegistry:
    """The children of one session: which ran here (their type and conversation) and which run now."""

    def __init__(self) -> None:
        self._ended: dict[str, tuple[str, ConversationState | None]] = {}
        self.running: set[str] = set()

    def ended(self, agent_id: str, agent_type: str, state: ConversationState | None) -> None:
        """Remember a child that ended in this process: its type, and its conversation when nothing
        stores it (an ephemeral session), so a long session does not keep every child in memory."""
        self._ended[agent_id] = (agent_type, state)

    async def find(
        self,
        agent_id: str,
        store: SessionStore | None,
        workspace: Path,
        parent_messages: Sequence[Message] = (),
    ) -> PastChild | str:
        """The child `agent_id` to continue, or why it cannot be (said to the model); `store` holds the
        parent session's child transcripts (None for an ephemeral parent); `parent_messages` tell the
        type of a child of an earlier run (its result's header names it)."""
        agent_id = agent_id.strip()
        if not _AGENT_ID.fullmatch(agent_id):
            return (
                f"resume={agent_id!r} is not an agent id; use the id from a task result's first line "
                "(`agent-...`), or leave resume out to start a new subagent"
            )
        if agent_id in self.running:
            return f"subagent {agent_id} is still running; wait for its result before continuing it"
        known = self._ended.get(agent_id)
        if store is not None:
            try:
                found = await asyncio.to_thread(_load, store, agent_id, workspace)
            except VtcodeError as exc:
                found = exc.user_text()
            if isinstance(found, PastChild):
                found.agent_type = known[0] if known is not None else _type_of(agent_id, parent_messages)
                return self._claim(found)
            if known is None or known[1] is None:
                return found
        if known is not None and known[1] is not None:
            return self._claim(PastChild(agent_id, known[0], _copy(known[1])))
        return f"no subagent {agent_id} ran in this session; start a new one with a complete brief"

    def _claim(self, past: PastChild) -> PastChild | str:
        """`past`, now marked running; two calls of one batch cannot continue the same child."""
        if past.agent_id in self.running:
            return f"subagent {past.agent_id} is still running; wait for its result before continuing it"
        self.running.add(past.agent_id)
        return past


def _type_of(agent_id: str, messages: Sequence[Message]) -> str | None:
    """The type a `task` result header (`[subagent TYPE agent-ID: ...`) gave `agent_id`, if any is left."""
    header = re.compile(rf"^(?:ERROR: )?\[subagent (\S+) {re.escape(agent_id)}: ")
    for message in reversed(messages):
        if isinstance(message, ToolResultMessage) and (found := header.match(message.content)):
            return found.group(1)
    return None


def _load(store: SessionStore, agent_id: str, workspace: Path) -> PastChild | str:
    """The stored transcript of `agent_id` (blocking I/O)."""
    from vtcode.runtime.session_resume import replay_history

    if not (store.sessions_dir / agent_id).is_dir():
        return f"no subagent {agent_id} ran in this session; start a new one with a complete brief"
    handle = store.open(agent_id)
    state = ConversationState(messages=[])
    notices: list[str] = []
    replay_history(handle, workspace, state, notices.append)
    return PastChild(agent_id, None, state, handle, notices)


def _copy(state: ConversationState) -> ConversationState:
    """A fresh state holding the same messages (a child's state is not shared between two runs)."""
    messages: list[Message] = list(state.messages)
    return ConversationState(messages=messages, turns=state.turns)
