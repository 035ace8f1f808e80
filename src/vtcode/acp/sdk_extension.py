"""vtcode's ACP extensions for programs that embed it over stdio (the SDK's subprocess transport).

ACP carries prompts, cancellation and permission requests; what it lacks goes through its own
extension points (`_meta` and `_`-prefixed methods), so there is one protocol:

- `initialize` with `clientCapabilities._meta.vtcode.events = true`: the session's events reach the
  client as `_vtcode/event` notifications, each one event of `vtcode exec --json` (the same typed
  stream in-process programs read), in place of the `session/update` translations.
- `session/new` and `session/load` with `_meta.vtcode`: `tools` the client runs itself
  (`acp.client_tools`), `hooks` it runs itself (`acp.client_hooks`), `model`, the provider name of
  its own model client that answers every model request (`acp.client_model`), `pausedCalls` and
  `pause` (`acp.client_pause`), `reportShadowed` (`policy.shadowed` events for a client whose callback
  answers approvals), `ephemeral`, `outputSchema`.
- `session/prompt` with `_meta.vtcode`: `intentId`, the id of the prompt's input, so the client knows
  its own `intent.applied` events; `outputSchema`, the schema this turn's answer is held to.
- `_vtcode/op {sessionId, op}`: the runtime operations ACP has no method for (steer, compact, pause,
  resume, withdraw a queued input, revoke a grant), as the runtime's own `Op` structs.
- `_vtcode/usage {sessionId}`: the session's account (`protocol.usage.UsageReport`, `Session.usage()`).
- a `turn.failed` event of a provider failure carries `cause` beside `event`: the status, provider and
  retry-after the event has no field for; with `pause`, an `approval.requested` carries the paused
  call's record (`acp.client_pause`).
- a `session/request_permission` answer with `_meta.vtcode {decision, reason, updatedArguments}`: the
  exact approval answer (allow once / this tool / this prefix, or deny with the reason the model
  reads; an allow may run the call with other arguments).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import msgspec
from acp import RequestError
from acp.schema import ClientCapabilities

from vtcode.acp.client_calls import Caller
from vtcode.acp.client_hooks import ClientHooks, client_hooks
from vtcode.acp.client_model import ClientModel
from vtcode.acp.client_pause import ClientPause
from vtcode.acp.client_tools import ClientTool, client_tools
from vtcode.protocol.acp_messages import (
    ApprovalMeta,
    ClientMeta,
    EventParams,
    OpParams,
    PromptMeta,
    SessionMeta,
    UsageParams,
)
from vtcode.protocol.acp_methods import EVENT, META_KEY, OP, USAGE
from vtcode.protocol.error_fields import error_fields
from vtcode.protocol.errors import ProviderError
from vtcode.protocol.events import ApprovalRequested, Event, TurnCompleted, TurnFailed
from vtcode.protocol.ops import (
    ApprovalAnswer,
    CancelIntent,
    Compact,
    Op,
    Pause,
    Resume,
    RevokeGrant,
    UserInput,
)
from vtcode.runtime.hooks import TurnEnd
from vtcode.runtime.wiring import SessionOptions

if TYPE_CHECKING:
    from vtcode.providers.base import ModelClient
    from vtcode.runtime.session import Session

INVALID_PARAMS = -32602

# Turn ends kept for their events (an editor's pump never reads them: the oldest go).
_ENDS_KEPT = 16


def wants_events(capabilities: ClientCapabilities | None) -> bool:
    """Whether the client asked for the typed event stream instead of `session/update`."""
    meta = capabilities.field_meta if capabilities is not None else None
    try:
        return msgspec.convert(meta.get(META_KEY) if meta else None, ClientMeta).events
    except msgspec.ValidationError:
        return False


@dataclass
class SessionSetup:
    """What a client asked of one session in `_meta.vtcode` (nothing, for an editor)."""

    setup: SessionMeta
    tools: tuple[ClientTool, ...]
    hooks: ClientHooks | None = None
    paused: ClientPause | None = None
    session_id: str = ""
    # How each turn ended (a turn-end hook), oldest first, for its `turn.completed` / `turn.failed`.
    ends: deque[TurnEnd] = field(default_factory=lambda: deque(maxlen=_ENDS_KEPT))

    @classmethod
    def read(cls, meta: object, caller: Caller) -> SessionSetup:
        """The setup in `meta` (raises `RequestError` for a malformed one)."""
        try:
            setup = msgspec.convert(meta or {}, SessionMeta)
            found: list[SessionSetup] = []

            def session_id() -> str:
                return found[0].session_id if found else ""

            tools = client_tools(setup.tools, caller, session_id)
            hooks = client_hooks(setup.hooks, caller, session_id) if setup.hooks else None
        except msgspec.ValidationError as exc:
            raise RequestError(INVALID_PARAMS, f"bad _meta.vtcode: {exc}", None) from None
        made = cls(setup, tools, hooks)
        found.append(made)
        return made

    def apply(self, options: SessionOptions) -> SessionOptions:
        """`options` with the client's tools, storage choice and output schema."""
        if (
            not self.tools
            and not self.setup.ephemeral
            and self.setup.output_schema is None
            and not self.hooks
        ):
            return options
        deciding = self.hooks.deciding() if self.hooks is not None else ()
        return replace(
            options,
            extra_tools=(*options.extra_tools, *self.tools),
            callable_hooks=(*options.callable_hooks, *deciding),
            ephemeral=options.ephemeral or self.setup.ephemeral,
            output_schema=self.setup.output_schema or options.output_schema,
        )

    def opened(self, session: Session) -> None:
        """The session is open: its id, and the client's own tools allowed unless they ask."""
        self.session_id = session.id
        # The client declared these itself: asking about them would ask it about its own code.
        names = [t.declared.name for t in self.tools if t.kind != "read" and not t.declared.needs_approval]
        session.allow_tools(names)
        # First of the end-of-turn hooks: it runs before the pump reads the turn's `turn.failed`.
        session.hooks.end_of_turn.insert(0, self._note_end)
        if self.hooks is not None:
            self.hooks.install(session.hooks)
        if self.setup.report_shadowed:
            session.report_shadowed_policy()
        if self.setup.paused_calls or self.setup.pause:
            self.paused = ClientPause.attach(session, record=self.setup.pause)

    def model_client(self, caller: Caller) -> ModelClient | None:
        """The proxy to the client's model client, when it runs one (`acp.client_model`)."""
        return ClientModel(caller, self.setup.model) if self.setup.model is not None else None

    def opened_meta(self) -> dict[str, Any] | None:
        """What the answer to `session/new` / `session/load` tells the client in `_meta.vtcode`."""
        if self.paused is None:
            return None
        return {META_KEY: msgspec.to_builtins(self.paused.meta())}

    async def _note_end(self, end: TurnEnd) -> None:
        self.ends.append(end)

    async def event_params(self, session_id: str, event: Event) -> EventParams:
        """`event` and what goes with it to the client: a provider error's `cause` with a `turn.failed`,
        a paused call's record with an `approval.requested`.

        Before a turn's end reaches the client, its `turn_end` hooks run there (`acp.client_hooks`), so
        the program sees them done when its turn's result comes, as in-process.
        """
        params = EventParams(session_id, event)
        if isinstance(event, TurnCompleted | TurnFailed):
            # Each turn's end event comes after its end hook ran (the turn task does not yield between).
            end = self.ends.popleft() if self.ends else None
            if end is not None and self.hooks is not None:
                await self.hooks.turn_ended(end)
            cause = _cause(end.error if end is not None else None)
            if isinstance(event, TurnFailed) and cause is not None:
                params = msgspec.structs.replace(params, cause=cause)
        if self.paused is not None:
            # Recorded before the client sees the request: it may end the turn at once.
            params = self.paused.note(params)
        return params


def _cause(failure: BaseException | None) -> dict[str, Any] | None:
    """What `turn.failed` cannot say about a provider error (status, provider, retry-after)."""
    return error_fields(failure) if isinstance(failure, ProviderError) else None


async def send_event(caller: Caller, session_id: str, event: Event, setup: SessionSetup | None) -> None:
    """One event as a `_vtcode/event` notification (a `turn.failed` with the provider error's `cause`)."""
    params = EventParams(session_id, event) if setup is None else await setup.event_params(session_id, event)
    await caller.ext_notification(EVENT, msgspec.to_builtins(params))


def prompt_setup(session: Session, meta: object) -> str | None:
    """Apply a prompt's `_meta.vtcode` (`PromptMeta`): its output schema holds this turn's answer to a
    schema; its intent id is returned (None: the server makes one). Raises `RequestError` for a
    malformed one."""
    if meta is None:
        return None
    try:
        asked = msgspec.convert(meta, PromptMeta)
    except msgspec.ValidationError as exc:
        raise RequestError(INVALID_PARAMS, f"bad _meta.vtcode: {exc}", None) from None
    if asked.output_schema is not msgspec.UNSET:
        session.set_output_schema(asked.output_schema)
    return asked.intent_id or None


def approval_answer(request: ApprovalRequested, meta: Mapping[str, Any] | None) -> ApprovalAnswer | None:
    """The exact answer the client put in the permission response's `_meta.vtcode`, if it did."""
    try:
        exact = msgspec.convert(meta.get(META_KEY) if meta else None, ApprovalMeta)
    except msgspec.ValidationError:
        return None
    return ApprovalAnswer(
        request_id=request.request_id,
        decision=exact.decision,
        reason=exact.reason,
        updated_arguments=exact.updated_arguments,
    )


def _runnable(op: Op) -> Op:
    match op:
        case UserInput(mode="steer") | Compact() | Pause() | Resume() | CancelIntent() | RevokeGrant():
            return op
    # Prompts, cancels and approvals have their ACP methods; shutdown is the end of input.
    raise RequestError(INVALID_PARAMS, f"{type(op).__name__} is not sent as _vtcode/op", None)


async def ext_method(
    method: str, params: Mapping[str, Any], session: Callable[[str], Session]
) -> dict[str, Any]:
    """Answer one `_vtcode/...` request (`session` finds an open session or raises `RequestError`)."""
    if method == USAGE:
        try:
            asked = msgspec.convert(params, UsageParams)
        except msgspec.ValidationError as exc:
            raise RequestError(INVALID_PARAMS, f"bad _vtcode/usage: {exc}", None) from None
        report: dict[str, Any] = msgspec.to_builtins(session(asked.session_id).usage())
        return report
    if method != OP:
        raise RequestError.method_not_found(f"_{method}")
    try:
        sent = msgspec.convert(params, OpParams)
    except msgspec.ValidationError as exc:
        raise RequestError(INVALID_PARAMS, f"bad _vtcode/op: {exc}", None) from None
    await session(sent.session_id).submit(_runnable(sent.op))
    return {}
