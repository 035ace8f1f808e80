"""The subprocess transport: the session runs in a `vtcode acp` child, spoken to in ACP over stdio.

One child per session, in its own process group (`exec.agent_child`), killed on close. The protocol is
ACP with vtcode's extensions (`acp.sdk_extension`): prompts are `session/prompt`, an interrupt is
`session/cancel`, approvals are `session/request_permission`, resume is `session/load`; the typed event
stream, the program's own tools and the operations ACP lacks (steer, compact, pause) are `_vtcode/...`
extensions. If the child dies, the stream ends with a `TransportError` (a running turn's `result()`
raises it); the session is in the store, so `Session.resume(id)` continues it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec
from acp import PROTOCOL_VERSION, RequestError
from acp.client.connection import ClientSideConnection
from acp.helpers import ContentBlock
from acp.interfaces import Client
from acp.schema import ClientCapabilities, Implementation, TextContentBlock

from vtcode import __version__
from vtcode.exec.agent_child import AgentChild
from vtcode.protocol.acp_messages import (
    ClientMeta,
    DeclaredTool,
    EventParams,
    OpParams,
    PromptMeta,
    SessionMeta,
    UsageParams,
)
from vtcode.protocol.acp_methods import META_KEY, OP, USAGE
from vtcode.protocol.error_fields import error_from_fields
from vtcode.protocol.errors import (
    ConfigError,
    ExitCode,
    ProviderError,
    UsageError,
    VtcodeError,
)
from vtcode.protocol.events import ApprovalRequested, Event, IntentApplied, TurnCompleted, TurnFailed
from vtcode.protocol.ops import ApprovalAnswer, Interrupt, Op, Shutdown, UserInput
from vtcode.protocol.usage import UsageReport
from vtcode.sdk.options import Options
from vtcode.sdk.transport.acp_child import StartedChild
from vtcode.sdk.transport.acp_client import SdkClient
from vtcode.sdk.transport.acp_framing import PipeFraming
from vtcode.sdk.transport.acp_hooks import HookServer
from vtcode.sdk.transport.acp_model import ModelServer
from vtcode.sdk.transport.acp_pause import ChildPausedCalls
from vtcode.sdk.transport.errors import TransportError

log = logging.getLogger(__name__)

# How long the child gets to answer `initialize` and open the session.
OPEN_SECONDS = 60.0


class AcpSubprocess:
    """One session in a `vtcode acp` child."""

    def __init__(self, child: AgentChild, client: SdkClient) -> None:
        self._child = child
        self._client = client
        self._events: asyncio.Queue[Event | BaseException | None] = asyncio.Queue()
        self.framing = PipeFraming(child.stdout, child.stdin, self._on_event)
        self.conn = ClientSideConnection(_as_client(client), self.framing)
        self._session_id = ""
        self._closing = False
        self._prompt: asyncio.Task[None] | None = None
        # Whether the prompt sent last has seen its turn end (a refused prompt gets a turn.failed here).
        self._ended = True
        # The intent ids of our prompts: ACP needs one per prompt, the in-process stream shows none.
        self._intents: set[str] = set()
        # The answer schema of the next prompt's turn (`set_output_schema`), sent with it.
        self._schema: dict[str, Any] | None = None
        self._failure_sink: Callable[[BaseException | None], None] | None = None
        # Calls paused for approval, in the session folder the child names when it opens the session.
        self.paused = ChildPausedCalls()
        self._watch = asyncio.ensure_future(self._watch_end())

    @property
    def id(self) -> str:
        """The session id (the child's runtime session)."""
        return self._session_id

    @property
    def pid(self) -> int:
        """The child's pid (its process group id)."""
        return self._child.pid

    async def submit(self, op: Op) -> None:
        """Send one operation by its ACP method, or as `_vtcode/op` where ACP has none.

        Raises `TransportError` once the child is gone (nothing would ever answer).
        """
        if self.framing.ended.is_set() and not self._closing and not isinstance(op, Interrupt | Shutdown):
            raise self._broken("the vtcode acp child has ended")
        match op:
            case UserInput(mode="steer"):
                await self._op(op)
            case UserInput(text=text):
                if self._prompt is not None:
                    # The last prompt's answer follows its turn's last event: let it arrive first.
                    await asyncio.shield(self._prompt)
                self._ended = False
                self._prompt = asyncio.ensure_future(self._run_prompt(text))
            case Interrupt():
                with contextlib.suppress(ConnectionError):
                    await self.conn.cancel(session_id=self._session_id)
            case ApprovalAnswer():
                self._client.answer(op)
            case Shutdown():
                await self.aclose()
            case _:
                await self._op(op)

    async def events(self) -> AsyncIterator[Event]:
        """The session's events, in order; raises `TransportError` when the child dies."""
        while True:
            item = await self._events.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    async def usage(self) -> UsageReport:
        """The child session's account, asked for with `_vtcode/usage`."""
        try:
            raw = await self.conn.ext_method(USAGE, msgspec.to_builtins(UsageParams(self._session_id)))
        except RequestError as exc:
            raise UsageError(str(exc)) from None
        except ConnectionError as exc:
            raise self._broken(str(exc)) from None
        return msgspec.convert(raw, UsageReport)

    async def aclose(self) -> None:
        """Interrupt a running turn, close the child's input, and end the child and its group."""
        if self._closing:
            await self._watch
            return
        self._closing = True
        if self._prompt is not None and not self._prompt.done() and self._session_id:
            with contextlib.suppress(ConnectionError):
                await self.conn.cancel(session_id=self._session_id)
        # End of input: the child lets the cancelled turn end, shuts its session down and exits.
        with contextlib.suppress(ConnectionError, OSError):
            await self.framing.close()
        await self._child.close()
        self._client.cancel_all()
        await self.conn.close()
        await self._watch
        if self._prompt is not None:
            await asyncio.gather(self._prompt, return_exceptions=True)

    def set_output_schema(self, schema: Mapping[str, Any] | None) -> None:
        """Hold the answers of turns started from now on to `schema`: it goes with the next prompt."""
        self._schema = dict(schema) if schema is not None else None

    def on_failure(self, sink: Callable[[BaseException | None], None]) -> None:
        """Report the provider error a `turn.failed` came with (its `cause`), before the event."""
        self._failure_sink = sink

    # -- inside ----------------------------------------------------------------------------------------

    def _on_event(self, params: EventParams) -> None:
        event, cause = params.event, params.cause
        if isinstance(event, IntentApplied) and event.intent_id in self._intents:
            self._intents.discard(event.intent_id)
            return
        self._client.saw(event)
        if isinstance(event, ApprovalRequested):
            self.paused.note(event.request_id, params.paused, params.pause_error, params.paused_calls_dir)
        if isinstance(event, TurnCompleted | TurnFailed):
            self._ended = True
            if self._failure_sink is not None:
                self._failure_sink(provider_error(cause) if cause is not None else None)
        self._events.put_nowait(event)

    async def _op(self, op: Op) -> None:
        try:
            await self.conn.ext_method(OP, msgspec.to_builtins(OpParams(self._session_id, op)))
        except RequestError as exc:
            raise UsageError(str(exc)) from None
        except ConnectionError as exc:
            raise self._broken(str(exc)) from None

    async def _run_prompt(self, text: str) -> None:
        """Send the prompt; its answer comes when its turn ends (the events say how)."""
        intent = str(uuid.uuid4())
        self._intents.add(intent)
        blocks: list[ContentBlock] = [TextContentBlock(type="text", text=text)]
        try:
            await self.conn.prompt(
                session_id=self._session_id,
                prompt=blocks,
                vtcode=msgspec.to_builtins(PromptMeta(intent_id=intent, output_schema=self._schema)),
            )
        except (RequestError, ConnectionError) as exc:
            if not self._ended and not self._closing and isinstance(exc, RequestError):
                # Refused before any turn ran: the turn still ends, as it would in-process.
                self._ended = True
                self._events.put_nowait(TurnFailed(kind="internal", message=str(exc)))

    async def _watch_end(self) -> None:
        """When the child's output ends: a clean end after close, else a broken transport."""
        await self.framing.ended.wait()
        if self._closing:
            self._events.put_nowait(None)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._child.wait(), 5.0)
        self._events.put_nowait(self._broken("the vtcode acp child ended"))

    def _broken(self, what: str) -> TransportError:
        code = self._child.returncode
        status = f" (signal {-code})" if code is not None and code < 0 else f" (exit {code})" if code else ""
        tail = self._child.stderr_tail()
        return TransportError(
            f"{what}{status}",
            hint=f"Session.resume({self._session_id!r}) continues the session" if self._session_id else None,
            returncode=code,
            stderr=tail,
        )


def provider_error(cause: dict[str, Any]) -> ProviderError | None:
    """The provider error a `turn.failed` event's `cause` describes (None for one it cannot read)."""
    error = error_from_fields(cause)
    return error if isinstance(error, ProviderError) else None


def _as_client(client: SdkClient) -> Client:
    # The ACP router calls only the methods a client has; the protocol class lists every optional one.
    return client  # type: ignore[return-value]


async def open_subprocess(options: Options, started: StartedChild, *, resume: str | None) -> AcpSubprocess:
    """Open (or load) the session in a started `vtcode acp` child."""
    child, workspace, schema = started.process, started.workspace, started.schema
    found: list[AcpSubprocess] = []
    hooks = HookServer(options.hooks, lambda: found[0].id) if options.hooks is not None else None
    model = ModelServer(options.model_client) if options.model_client is not None else None
    transport = AcpSubprocess(child, SdkClient(options.tools, workspace, hooks=hooks, model=model))
    found.append(transport)
    try:
        async with asyncio.timeout(OPEN_SECONDS):
            setup = session_setup(options, schema, hooks)
            transport._session_id = await _open_session(transport, workspace, setup, resume)
    except BaseException as exc:
        await transport.aclose()
        if isinstance(exc, RequestError):
            raise _open_error(exc) from None
        if isinstance(exc, ConnectionError | TimeoutError):
            raise transport._broken(f"vtcode acp did not open the session: {exc}") from None
        raise
    return transport


async def _open_session(
    transport: AcpSubprocess, workspace: Path, setup: dict[str, Any], resume: str | None
) -> str:
    capabilities = ClientCapabilities(field_meta={META_KEY: msgspec.to_builtins(ClientMeta(events=True))})
    await transport.conn.initialize(
        protocol_version=PROTOCOL_VERSION,
        client_capabilities=capabilities,
        client_info=Implementation(name="vtcode-sdk", title="vtcode SDK", version=__version__),
    )
    if resume is None:
        response = await transport.conn.new_session(cwd=str(workspace), mcp_servers=[], vtcode=setup)
        transport.paused.opened(response.field_meta)
        return response.session_id
    loaded = await transport.conn.load_session(
        cwd=str(workspace), session_id=resume, mcp_servers=[], vtcode=setup
    )
    transport.paused.opened(loaded.field_meta)
    return resume


def session_setup(
    options: Options, schema: dict[str, Any] | None, hooks: HookServer | None
) -> dict[str, Any]:
    """What the session asks of the child in `_meta.vtcode` (`acp.sdk_extension`)."""
    tools = tuple(
        DeclaredTool(
            name=t.spec.name,
            description=t.spec.description,
            parameters=t.spec.parameters,
            kind=t.kind,
            needs_approval=t.needs_approval,
        )
        for t in options.tools
    )
    setup = SessionMeta(
        tools=tools,
        ephemeral=options.ephemeral,
        output_schema=schema,
        # Calls paused earlier run at the next turn, whatever this session's mode (as in-process).
        paused_calls=not options.ephemeral,
        # A permission callback answers what would be asked; only without one does a call pause.
        pause=options.approval == "pause" and options.permission is None,
        # The program learns (`PolicyShadowed`) when a rule or the mode decides before its callback.
        report_shadowed=options.permission is not None,
        hooks=tuple(hooks.declared) if hooks is not None else (),
        model=options.model_client.provider if options.model_client is not None else None,
    )
    found: dict[str, Any] = msgspec.to_builtins(setup)
    return found


def _open_error(exc: RequestError) -> VtcodeError:
    """The child's refusal to open the session as the error an in-process open raises."""
    data = exc.data if isinstance(exc.data, dict) else {}
    message = str(exc)
    if data.get("exitCode") == int(ExitCode.USAGE):
        return ConfigError(message)
    return TransportError(message)
