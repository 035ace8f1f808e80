"""The ACP agent: editor sessions over runtime sessions, prompts as turns, approvals as permissions.

Each ACP session is one runtime `Session` (its id is the vtcode session id, so `session/load` finds it
in the store). A pump per session turns events into `session/update` notifications in order; a prompt
waits for the end of the turn it started, which is reported only after every update before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from acp import PROTOCOL_VERSION, RequestError
from acp.helpers import ContentBlock
from acp.interfaces import Client
from acp.schema import (
    AgentCapabilities,
    AvailableCommandsUpdate,
    ClientCapabilities,
    Implementation,
    InitializeResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SetSessionModeResponse,
    StopReason,
    Usage,
    UsageUpdate,
)

from vtcode import __version__
from vtcode.acp import permissions, rewind_command, sdk_extension
from vtcode.acp.available_commands import available_commands
from vtcode.acp.files import EditorBuffers
from vtcode.acp.mcp_servers import with_servers
from vtcode.acp.modes import approval_mode, mode_state
from vtcode.acp.prompt import BadBlock, prompt_input
from vtcode.acp.rewind_command import is_rewind_command
from vtcode.acp.updates import Translator, Update, plan_update, text_chunk, turn_usage, usage_update
from vtcode.protocol.acp_methods import META_KEY
from vtcode.protocol.errors import ExitCode, VtcodeError
from vtcode.protocol.events import (
    ApprovalRequested,
    ApprovalResolved,
    Event,
    IntentApplied,
    Notice,
    TurnCompleted,
    TurnFailed,
)
from vtcode.protocol.ops import Interrupt, Shutdown, UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.wiring import SessionOptions

log = logging.getLogger(__name__)

# (workspace the editor asked for, stored session to resume) -> what to open.
OptionsFactory = Callable[[str, str | None], Awaitable[SessionOptions]]
# Whether the model sessions start with takes images (asked once, when the editor connects).
ImagesProbe = Callable[[], Awaitable[bool]]

INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


@dataclass
class _Waiting:
    """The prompt in progress: its input, and whether its turn has started."""

    intent_id: str
    done: asyncio.Future[StopReason]
    started: bool = False
    usage: Usage | None = None


@dataclass
class _Live:
    """One editor session."""

    id: str
    session: Session
    translator: Translator
    pump: asyncio.Task[None] | None = None
    waiting: _Waiting | None = None
    asking: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    setup: sdk_extension.SessionSetup | None = None


class VtcodeAgent:
    """Implements the agent side of ACP over runtime sessions."""

    def __init__(self, options: OptionsFactory, images: ImagesProbe | None = None) -> None:
        self._options = options
        self._images = images
        self._client: Client | None = None
        self._client_name = "the editor"
        self._capabilities = ClientCapabilities()
        self._sessions: dict[str, _Live] = {}
        # A program asked for the typed event stream (`acp.sdk_extension`) instead of session updates.
        self._typed_events = False

    def on_connect(self, conn: Client) -> None:
        """Keep the connection to call the client (updates, permissions, files)."""
        self._client = conn

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Implementation | None = None,
        **kwargs: Any,
    ) -> InitializeResponse:
        """Agree on the protocol version (ours when the client's is not supported) and capabilities."""
        if client_capabilities is not None:
            self._capabilities = client_capabilities
            self._typed_events = sdk_extension.wants_events(client_capabilities)
        if client_info is not None:
            self._client_name = client_info.title or client_info.name
        # A program on the typed stream sends text prompts: no need to probe the model for images.
        image = False if self._typed_events else await self._takes_images()
        return InitializeResponse(
            protocol_version=PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=image, audio=False, embedded_context=True),
                mcp_capabilities=McpCapabilities(http=True, sse=False),
            ),
            agent_info=Implementation(name="vtcode", title="VT Code", version=__version__),
            auth_methods=[],
        )

    async def authenticate(self, method_id: str, **kwargs: Any) -> None:
        """Nothing to authenticate: provider keys come from the environment and config."""
        return None

    async def new_session(
        self,
        cwd: str,
        additional_directories: list[str] | None = None,
        mcp_servers: list[Any] | None = None,
        **kwargs: Any,
    ) -> NewSessionResponse:
        """Open a runtime session in `cwd`."""
        live = await self._open(cwd, None, mcp_servers or [], kwargs.get(META_KEY))
        self._start_pump(live)
        meta = live.setup.opened_meta() if live.setup is not None else None
        return NewSessionResponse(
            session_id=live.id, modes=mode_state(live.session.approval_mode), field_meta=meta
        )

    async def load_session(
        self,
        cwd: str,
        session_id: str,
        mcp_servers: list[Any] | None = None,
        additional_directories: list[str] | None = None,
        **kwargs: Any,
    ) -> LoadSessionResponse:
        """Resume a stored session, replaying its history as updates before answering."""
        from vtcode.acp.replay import replay

        if session_id in self._sessions:
            raise RequestError(
                INVALID_PARAMS, f"session {session_id} is already open", {"sessionId": session_id}
            )
        live = await self._open(cwd, session_id, mcp_servers or [], kwargs.get(META_KEY))
        client = self._require_client()
        for update in replay(live.session.messages, str(live.session.options.workspace)):
            await client.session_update(session_id=live.id, update=update)
        if live.session.plan.steps:
            await client.session_update(session_id=live.id, update=plan_update(live.session.plan.steps))
        self._start_pump(live)
        meta = live.setup.opened_meta() if live.setup is not None else None
        return LoadSessionResponse(modes=mode_state(live.session.approval_mode), field_meta=meta)

    async def set_session_mode(self, session_id: str, mode_id: str, **kwargs: Any) -> SetSessionModeResponse:
        """Switch the approval mode from the next tool call on."""
        live = self._live(session_id)
        mode = approval_mode(mode_id)
        if mode is None:
            raise RequestError(INVALID_PARAMS, f"unknown mode {mode_id!r}", {"modeId": mode_id})
        live.session.set_approval_mode(mode)
        return SetSessionModeResponse()

    async def prompt(self, prompt: list[ContentBlock], session_id: str, **kwargs: Any) -> PromptResponse:
        """Run one turn with the prompt; answers when the turn ends (its updates were all sent)."""
        live = self._live(session_id)
        if live.waiting is not None:
            raise RequestError(INVALID_PARAMS, "a prompt is already running in this session", None)
        try:
            given = prompt_input(prompt)
        except BadBlock as exc:
            raise RequestError(INVALID_PARAMS, str(exc), None) from None
        if is_rewind_command(given.text):
            # Answered by the session's checkpoints, not the model: no turn runs.
            reply = await rewind_command.answer(live.session, given.text)
            await self._require_client().session_update(session_id=live.id, update=text_chunk(reply))
            return PromptResponse(stop_reason="end_turn")
        intent_id = sdk_extension.prompt_setup(live.session, kwargs.get(META_KEY)) or str(uuid.uuid4())
        waiting = _Waiting(intent_id, asyncio.get_running_loop().create_future())
        live.waiting = waiting
        try:
            await live.session.submit(UserInput(given.text, intent_id=waiting.intent_id, images=given.images))
            return PromptResponse(stop_reason=await waiting.done, usage=waiting.usage)
        finally:
            live.waiting = None

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        """Interrupt the running turn as Esc does; input not yet started is withdrawn."""
        live = self._sessions.get(session_id)
        if live is None or live.waiting is None:
            return
        waiting = live.waiting
        if not waiting.started and await live.session.withdraw(waiting.intent_id) is not None:
            _resolve(waiting, "cancelled")
            return
        await live.session.submit(Interrupt())

    async def cancel_all(self) -> None:
        """Cancel the running prompt of every session (the editor is gone and will not send more)."""
        for session_id in list(self._sessions):
            await self.cancel(session_id)

    async def aclose(self) -> None:
        """Shut every session down (their commands end with them)."""
        sessions, self._sessions = list(self._sessions.values()), {}
        for live in sessions:
            await live.session.submit(Shutdown())
            if live.pump is not None:
                with contextlib.suppress(Exception):
                    await live.pump

    # -- inside ---------------------------------------------------------------------------------------

    async def _takes_images(self) -> bool:
        """Advertise image prompts only for a model that takes them (a session whose model takes none
        still accepts them: the model reads a note per image)."""
        if self._images is None:
            return False
        try:
            return await self._images()
        except VtcodeError as exc:
            # No provider yet: `session/new` reports that; the handshake itself still succeeds.
            log.info("image prompts not advertised: %s", exc.user_text())
            return False

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """vtcode's extension requests (`acp.sdk_extension`)."""
        return await sdk_extension.ext_method(method, params, lambda sid: self._live(sid).session)

    async def _open(self, cwd: str, resume: str | None, mcp_servers: list[Any], meta: object = None) -> _Live:
        fs = self._capabilities.fs
        read, write = bool(fs and fs.read_text_file), bool(fs and fs.write_text_file)
        buffers = EditorBuffers(self._require_client(), read=read, write=write) if read or write else None
        setup = sdk_extension.SessionSetup.read(meta, self._require_client())
        try:
            options = await self._options(cwd, resume)
            options = dataclasses.replace(options, settings=with_servers(options.settings, mcp_servers))
            options = setup.apply(options)
            if buffers is not None:
                options = dataclasses.replace(options, buffers=buffers)
            session = await Session.open(options, client=setup.model_client(self._require_client()))
        except VtcodeError as exc:
            raise RequestError(INTERNAL_ERROR, exc.user_text(), {"exitCode": int(exc.exit_code)}) from None
        if buffers is not None:
            buffers.session_id = session.id
        setup.opened(session)
        live = _Live(session.id, session, Translator(str(options.workspace)), setup=setup)
        self._sessions[live.id] = live
        return live

    def _live(self, session_id: str) -> _Live:
        live = self._sessions.get(session_id)
        if live is None:
            raise RequestError(INVALID_PARAMS, f"unknown session {session_id!r}", {"sessionId": session_id})
        return live

    def _require_client(self) -> Client:
        if self._client is None:
            raise RequestError(INTERNAL_ERROR, "no client connection", None)
        return self._client

    def _start_pump(self, live: _Live) -> None:
        live.pump = asyncio.create_task(self._pump(live), name=f"vtcode-acp-{live.id}")

    async def _pump(self, live: _Live) -> None:
        """Forward one session's events in order until its stream ends (an editor gets the session's
        `/` menu first)."""
        client = self._require_client()
        if not self._typed_events:
            # A task of its own, so it follows the session/new (or load) response on the wire.
            with contextlib.suppress(ConnectionError):
                menu = AvailableCommandsUpdate(
                    session_update="available_commands_update",
                    available_commands=await available_commands(live.session),
                )
                await client.session_update(session_id=live.id, update=menu)
        async for event in live.session.events():
            if self._typed_events:
                with contextlib.suppress(ConnectionError):
                    await sdk_extension.send_event(client, live.id, event, live.setup)
                self._follow(live, event)
                continue
            updates: list[Update | UsageUpdate] = [*live.translator.updates(event)]
            if isinstance(event, TurnCompleted | TurnFailed):
                # Before the prompt's response: the editor's context meter and cost are current with it.
                updates.append(usage_update(live.session.status()))
            for update in updates:
                try:
                    await client.session_update(session_id=live.id, update=update)
                except ConnectionError:
                    log.debug("update not sent: the client is gone")
            self._follow(live, event)
        for task in live.asking.values():
            task.cancel()
        if live.waiting is not None:
            _resolve(live.waiting, "cancelled")

    def _follow(self, live: _Live, event: Event) -> None:
        waiting = live.waiting
        match event:
            case ApprovalRequested():
                task = asyncio.create_task(self._ask(live, event), name=f"vtcode-acp-ask-{event.request_id}")
                live.asking[event.request_id] = task
            case ApprovalResolved(request_id=request_id):
                pending = live.asking.pop(request_id, None)
                if pending is not None and not pending.done():
                    pending.cancel()
            case IntentApplied(intent_id=intent_id) if waiting is not None and intent_id == waiting.intent_id:
                # This prompt's own turn, not one that was running when it came (a resumed session
                # answers the prompt a killed run left unanswered first).
                waiting.started = True
            case TurnCompleted(usage=usage) if waiting is not None and waiting.started:
                waiting.usage = turn_usage(usage)
                _resolve(waiting, "end_turn")
            case TurnFailed() if waiting is not None and waiting.started:
                if event.exit_code == ExitCode.INTERRUPTED:
                    _resolve(waiting, "cancelled")
                elif not waiting.done.done():
                    message = f"{event.message} ({event.hint})" if event.hint else event.message
                    waiting.done.set_exception(RequestError(INTERNAL_ERROR, message, {"kind": event.kind}))
            case Notice(level=level, message=message):
                log.log(logging.WARNING if level == "warning" else logging.INFO, "%s", message)

    async def _ask(self, live: _Live, request: ApprovalRequested) -> None:
        """Put an "ask" to the editor and answer the approval with its choice."""
        outcome, meta = None, None
        try:
            response = await self._require_client().request_permission(
                session_id=live.id,
                tool_call=permissions.tool_call(request),
                options=permissions.options(request),
            )
            outcome, meta = response.outcome, response.field_meta
        except (RequestError, ConnectionError) as exc:
            log.warning("permission request failed: %s", exc)
        finally:
            live.asking.pop(request.request_id, None)
        exact = sdk_extension.approval_answer(request, meta)
        await live.session.submit(exact or permissions.answer(request, outcome, self._client_name))


def _resolve(waiting: _Waiting, reason: StopReason) -> None:
    if not waiting.done.done():
        waiting.done.set_result(reason)
