"""Tools the ACP client declares and runs itself (the SDK's `@vt.tool` functions in the parent process).

The client lists them in `session/new` / `session/load` (`_meta.vtcode.tools`); each becomes an ordinary
runtime tool here, so the runtime dispatches, approves and records their calls like any other. Running
one is a `_vtcode/tool_call` request to the client, answered with the function's rendered result; the
result is bounded for the model here, as in-process (`tools.bounded_output`). An interrupted call
tells the client with a `_vtcode/tool_cancel` notification.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec
from acp import RequestError

from vtcode.protocol.acp_methods import TOOL_CALL, TOOL_CANCEL
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome
from vtcode.tools.bounded_output import bounded
from vtcode.tools.function_call import describe_function_call

log = logging.getLogger(__name__)


class Caller(Protocol):
    """The side of the connection that sends the client extension requests."""

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send an extension request and wait for its answer."""
        ...

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        """Send an extension notification."""
        ...


class Declared(msgspec.Struct, frozen=True, rename="camel"):
    """One tool as the client declares it."""

    name: str
    parameters: dict[str, Any]
    description: str = ""
    # "read" tools are never asked about; "external" ones follow the approval rules.
    kind: ToolKind = "external"
    needs_approval: bool = False


class ToolResult(msgspec.Struct, frozen=True, rename="camel"):
    """The client's answer to a `_vtcode/tool_call`."""

    content: str
    is_error: bool = False


@dataclass
class ClientTool:
    """A tool whose calls the client runs."""

    declared: Declared
    caller: Caller
    session_id: Callable[[], str]

    @property
    def spec(self) -> ToolSpec:
        """Name, description and parameters as the client declared them."""
        d = self.declared
        return ToolSpec(name=d.name, description=d.description, parameters=d.parameters)

    @property
    def kind(self) -> ToolKind:
        """The declared kind."""
        return self.declared.kind

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The call as one line, as the SDK's in-process function tools show it."""
        return describe_function_call(self.declared.name, arguments)

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Ask the client to run the call; its result is bounded for the model like a local tool's."""
        name = self.declared.name
        call_id = str(uuid.uuid4())
        params = {"sessionId": self.session_id(), "callId": call_id, "name": name, "arguments": arguments}
        try:
            raw = await self.caller.ext_method(TOOL_CALL, params)
            result = msgspec.convert(raw, ToolResult)
        except asyncio.CancelledError:
            # The function in the client may still run: ask it to stop (its ToolContext.cancelled).
            notify = self.caller.ext_notification(
                TOOL_CANCEL, {"sessionId": params["sessionId"], "callId": call_id}
            )
            asyncio.ensure_future(notify).add_done_callback(_ignore)
            raise
        except (RequestError, ConnectionError, msgspec.ValidationError) as exc:
            log.warning("the client could not run %s: %s", name, exc)
            return ToolOutcome(content=f"{name} could not be run by the client: {exc}", is_error=True)
        return bounded(result.content, ctx, is_error=result.is_error, name=name, spool=f"tool-{name}")


def client_tools(
    declared: Sequence[Mapping[str, Any]], caller: Caller, session_id: Callable[[], str]
) -> tuple[ClientTool, ...]:
    """The declared tools as runtime tools (raises `msgspec.ValidationError` for a bad declaration)."""
    return tuple(ClientTool(msgspec.convert(d, Declared), caller, session_id) for d in declared)


def _ignore(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.debug("tool cancel not sent: %s", task.exception())
