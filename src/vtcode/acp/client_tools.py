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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from acp import RequestError

from vtcode.acp.client_calls import Caller, withdraw
from vtcode.protocol.acp_messages import CallCancel, DeclaredTool, ToolCallParams, ToolResult
from vtcode.protocol.acp_methods import TOOL_CALL, TOOL_CANCEL
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome
from vtcode.tools.bounded_output import bounded
from vtcode.tools.function_call import describe_function_call

log = logging.getLogger(__name__)


@dataclass
class ClientTool:
    """A tool whose calls the client runs."""

    declared: DeclaredTool
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
        call = ToolCallParams(
            session_id=self.session_id(), call_id=str(uuid.uuid4()), name=name, arguments=arguments
        )
        try:
            raw = await self.caller.ext_method(TOOL_CALL, msgspec.to_builtins(call))
            result = msgspec.convert(raw, ToolResult)
        except asyncio.CancelledError:
            # The function in the client may still run: ask it to stop (its ToolContext.cancelled).
            withdraw(self.caller, TOOL_CANCEL, CallCancel(call.session_id, call.call_id))
            raise
        except (RequestError, ConnectionError, msgspec.ValidationError) as exc:
            log.warning("the client could not run %s: %s", name, exc)
            return ToolOutcome(content=f"{name} could not be run by the client: {exc}", is_error=True)
        return bounded(result.content, ctx, is_error=result.is_error, name=name, spool=f"tool-{name}")


def client_tools(
    declared: Sequence[DeclaredTool], caller: Caller, session_id: Callable[[], str]
) -> tuple[ClientTool, ...]:
    """The declared tools as runtime tools."""
    return tuple(ClientTool(d, caller, session_id) for d in declared)
