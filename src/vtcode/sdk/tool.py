"""Tools as plain Python functions: `@vt.tool` turns a sync or async function into a session tool.

A function tool is an ordinary `vtcode.tools.base.Tool`, so the runtime dispatches, approves and records
its calls like any built-in one. Whatever the function raises becomes an error result the model reads
(`ToolError` text verbatim, anything else as `name failed: Type: message`); the session goes on.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

import msgspec

from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.sdk.schema import FunctionSchema, function_schema
from vtcode.tools.base import CallDescription, ToolOutcome
from vtcode.tools.base import ToolContext as RuntimeContext
from vtcode.tools.bounded_output import bounded
from vtcode.tools.function_call import describe_function_call


class ToolError(Exception):
    """Raised by a tool function: its message is the error result the model sees, verbatim."""


@dataclass(frozen=True)
class ToolContext:
    """What a tool function may know about its call, when its first parameter is annotated with this.

    `cancelled` is set when the turn is interrupted during the call: a sync function (which runs in a
    worker thread and cannot be cancelled) should check it and return; an async one is cancelled.
    """

    session_id: str
    workspace: Path
    cancelled: threading.Event = field(default_factory=threading.Event)


class FunctionTool:
    """A Python function offered to the model; `kind` decides how approvals treat its calls."""

    def __init__(
        self,
        fn: Callable[..., Any],
        schema: FunctionSchema,
        *,
        kind: ToolKind,
        needs_approval: bool,
        timeout: float | None = None,
    ):
        self.fn = fn
        self.schema = schema
        self.needs_approval = needs_approval
        self.timeout = timeout
        self._kind: ToolKind = kind
        self._spec = ToolSpec(
            name=schema.name, description=schema.description, parameters=schema.model_schema
        )

    @property
    def spec(self) -> ToolSpec:
        """Name, docstring summary and the provider-safe JSON Schema of the parameters."""
        return self._spec

    @property
    def kind(self) -> ToolKind:
        """`read` for `read_only=True` tools (never asked about), else `external`."""
        return self._kind

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The call as one line: the tool name and its arguments."""
        return describe_function_call(self._spec.name, arguments)

    async def run(self, arguments: dict[str, Any], ctx: RuntimeContext) -> ToolOutcome:
        """Run outside a session (no session id); sessions call `call` with their context."""
        return await self.call(arguments, ToolContext(session_id="", workspace=ctx.workspace), ctx)

    async def call(
        self, arguments: dict[str, Any], context: ToolContext, limits: RuntimeContext
    ) -> ToolOutcome:
        """Check the arguments, call the function (a sync one in a worker thread), render its result.

        A result over the tool-output budget of `limits` reaches the model as a preview
        (`tools.bounded_output`).
        """
        text, is_error = await self.result(arguments, context)
        name = self._spec.name
        return bounded(text, limits, is_error=is_error, name=name, spool=f"tool-{name}")

    async def result(self, arguments: dict[str, Any], context: ToolContext) -> tuple[str, bool]:
        """Check the arguments and call the function: its rendered result, and whether it is an error."""
        name = self._spec.name
        try:
            kwargs = self.schema.convert(arguments)
        except msgspec.ValidationError as exc:
            return f"invalid arguments for {name}: {exc}", True
        args = (context,) if self.schema.takes_context else ()
        try:
            async with asyncio.timeout(self.timeout):
                if inspect.iscoroutinefunction(self.fn):
                    value = await self.fn(*args, **kwargs)
                else:
                    value = await asyncio.to_thread(self.fn, *args, **kwargs)
                    if inspect.isawaitable(value):
                        value = await value
        except asyncio.CancelledError:
            context.cancelled.set()
            raise
        except TimeoutError:
            # A sync function's thread cannot be stopped: the flag asks it to return.
            context.cancelled.set()
            return f"{name} timed out after {self.timeout:g} s", True
        except ToolError as exc:
            return str(exc), True
        except Exception as exc:  # the model sees the failure and may try otherwise; the turn goes on
            return f"{name} failed: {type(exc).__name__}: {exc}", True
        return render(value), False


class SessionTool:
    """A function tool bound to one session, so its `ToolContext` names that session."""

    def __init__(self, tool: FunctionTool, session_id: Callable[[], str]) -> None:
        self.tool = tool
        self._session_id = session_id

    @property
    def spec(self) -> ToolSpec:
        """The function tool's spec."""
        return self.tool.spec

    @property
    def kind(self) -> ToolKind:
        """The function tool's kind."""
        return self.tool.kind

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The function tool's description of a call."""
        return self.tool.describe(arguments)

    async def run(self, arguments: dict[str, Any], ctx: RuntimeContext) -> ToolOutcome:
        """Call the function with this session's context."""
        context = ToolContext(session_id=self._session_id(), workspace=ctx.workspace)
        return await self.tool.call(arguments, context, ctx)


def render(value: object) -> str:
    """A function's return value as the model reads it: text as is, anything else as JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    try:
        return msgspec.json.encode(value).decode()
    except (TypeError, ValueError):
        return str(value)


@overload
def tool(fn: Callable[..., Awaitable[Any]] | Callable[..., Any], /) -> FunctionTool: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    read_only: bool = False,
    needs_approval: bool = False,
    timeout: float | None = None,
) -> Callable[[Callable[..., Any]], FunctionTool]: ...


def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    read_only: bool = False,
    needs_approval: bool = False,
    timeout: float | None = None,
) -> FunctionTool | Callable[[Callable[..., Any]], FunctionTool]:
    """Make `fn` a tool: `@tool` or `@tool(read_only=True, needs_approval=True, name=..., description=...)`.

    Tools that are not `read_only` are `external` calls for approvals: the session allows them without
    asking unless `needs_approval`, in which case the permission callback or an `ApprovalRequested`
    event decides. Deny rules and the `read-only` approval mode still hold. A call that takes longer
    than `timeout` seconds gives the model a timeout result.
    """

    def wrap(function: Callable[..., Any]) -> FunctionTool:
        schema = function_schema(function, name=name, description=description, context=ToolContext)
        kind: ToolKind = "read" if read_only else "external"
        return FunctionTool(function, schema, kind=kind, needs_approval=needs_approval, timeout=timeout)

    if fn is not None:
        return wrap(fn)
    return wrap
