"""What front ends read from a session: identity, model, history, state flags, grants, jobs, `/status`.

The read side of `Session` (which inherits it): every query here only looks at the wiring and the
session's state; the operations that change them are in `session.py` and `session_turns.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from vtcode.core.approvals import ApprovalMode, Grant
from vtcode.core.usage_ledger import Scope
from vtcode.instructions.report import InstructionsReport
from vtcode.protocol.events import Event
from vtcode.protocol.messages import Message
from vtcode.protocol.ops import UserInput
from vtcode.protocol.plan import Plan
from vtcode.protocol.usage import UsageReport
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hold import Hold
from vtcode.runtime.hooks import TurnHooks
from vtcode.runtime.intent_queue import IntentQueue
from vtcode.runtime.jobs import Jobs, spooled_output
from vtcode.runtime.status import ContextMeter, SessionStatus, session_status
from vtcode.runtime.usage_tracking import UsageTracking
from vtcode.runtime.wiring import SessionOptions, Wiring
from vtcode.store.event_log import read_events

if TYPE_CHECKING:
    from vtcode.runtime.skills import SessionSkills


class SessionQueries:
    """The session's state (set by `Session.__init__`) and the queries front ends make of it."""

    _wiring: Wiring
    _emitter: Emitter
    _options: SessionOptions
    _intents: IntentQueue
    _hold: Hold
    _context: ContextMeter
    _past_events_bytes: int
    # Whether a turn (or a `/compact` between turns) runs.
    _busy: bool
    _compact_requested: bool
    _compacting: bool

    @property
    def id(self) -> str:
        """The session (thread) id, known from the start, also before anything is stored."""
        return self._wiring.thread_id

    @property
    def model(self) -> str:
        """The model in use."""
        return self._wiring.model

    @property
    def hooks(self) -> TurnHooks:
        """The turn loop's extension points (DESIGN.md section 2)."""
        return self._wiring.hooks

    @property
    def messages(self) -> Sequence[Message]:
        """The current history as the model sees it."""
        return tuple(self._wiring.state.messages)

    @property
    def plan(self) -> Plan:
        """The agent's current plan (`update_plan`), as stored; empty before the first update."""
        return self._wiring.plan.plan if self._wiring.plan is not None else Plan()

    @property
    def pending(self) -> tuple[UserInput, ...]:
        """User input that waits, in delivery order."""
        return self._intents.items

    @property
    def running(self) -> bool:
        """Whether a turn is in progress."""
        return self._busy

    @property
    def compacting(self) -> bool:
        """Whether a `/compact` between turns is asked for or running."""
        return self._compact_requested or self._compacting

    @property
    def paused(self) -> bool:
        """Whether the session holds (`Pause`, or input held by an interrupt) until resumed."""
        return self._hold.on

    @property
    def skills(self) -> SessionSkills | None:
        """The session's skills and custom commands (`/skills`, the `/` menu); None when disabled."""
        return self._wiring.skills

    @property
    def options(self) -> SessionOptions:
        """What the session was opened with."""
        return self._wiring.options

    @property
    def approval_mode(self) -> ApprovalMode:
        """The approval mode tool calls are judged by."""
        return self._wiring.dispatcher.policy.mode

    def set_approval_mode(self, mode: ApprovalMode) -> None:
        """Judge tool calls by `mode` from the next one on (an editor's mode switch); grants stay."""
        dispatcher = self._wiring.dispatcher
        dispatcher.policy = msgspec.structs.replace(dispatcher.policy, mode=mode)

    def set_output_schema(self, schema: Mapping[str, Any] | None) -> None:
        """Hold the final answers of turns started from now on to `schema` (None: free text)."""
        self._wiring.runner.output_schema = schema

    def allow_tools(self, names: Iterable[str]) -> None:
        """Allow every call of `names` without asking for the rest of the session (an SDK program's own
        tools); deny rules and the read-only mode still refuse them."""
        dispatcher = self._wiring.dispatcher
        for name in names:
            dispatcher.grants = dispatcher.grants.with_grant(Grant("tool", name))

    def report_shadowed_policy(self) -> None:
        """Emit `policy.shadowed` when a rule or the mode settles a call a permission callback would
        have been asked about (front ends that answer approvals with a callback: the SDK)."""
        dispatcher = self._wiring.dispatcher
        dispatcher.shadows.report_to(dispatcher.emitter.emit)

    @property
    def grants(self) -> tuple[Grant, ...]:
        """What the user allowed for the rest of this session (`/permissions`; `RevokeGrant` takes back)."""
        return self._wiring.dispatcher.grants.listed()

    @property
    def jobs(self) -> Jobs:
        """The session's command sessions (`/jobs`)."""
        return Jobs(self._wiring.toolset.sessions)

    def past_events(self) -> list[Event]:
        """The events of this session's earlier runs as stored (empty for a new session)."""
        handle = self._wiring.history.handle
        if handle is None or not self._past_events_bytes:
            return []
        return read_events(handle.events_path, self._past_events_bytes)

    def command_output(self, session_id: str) -> str:
        """The whole output of command session `session_id` from its spool (raises `SessionError`)."""
        if sessions := self._wiring.toolset.sessions:
            for session in sessions.sessions.values():
                if session.id == session_id:
                    session.output.spool.sync()
        return spooled_output(self._wiring.options.workspace, session_id)

    def status(self) -> SessionStatus:
        """Model, tokens, context pressure against the compaction thresholds, jobs and pending input."""
        return session_status(
            self._wiring,
            self._context,
            running_jobs=self.jobs.running,
            pending_intents=len(self._intents),
            running=self._busy,
            paused=self._hold.on,
        )

    @property
    def usage_tracking(self) -> UsageTracking | None:
        """This session's account, for a child session (a subagent) to record into (`usage_parent`)."""
        return self._wiring.usage

    def usage(self, scope: Scope = "session") -> UsageReport:
        """What the session's model calls used and cost, by source and model (`/usage`)."""
        usage = self._wiring.usage
        return usage.ledger.report(scope, self.id) if usage is not None else UsageReport(session_id=self.id)

    def instructions_report(self) -> InstructionsReport:
        """The instruction sources that apply to the paths touched so far, with diagnostics (`/memory`)."""
        return self._wiring.prompt.instructions_report()
