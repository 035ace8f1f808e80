"""How a `vtcode.sdk.Session` reaches its runtime: in this process (the default) or a `vtcode acp` child.

Either way the session submits the runtime's operations and reads its events (`vtcode exec --json`
event types), so `events()` and `result()` are the same whichever transport carries them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol

from vtcode.protocol.events import Event
from vtcode.protocol.ops import Op
from vtcode.sdk.transport.errors import TransportError

if TYPE_CHECKING:
    from vtcode.protocol.usage import UsageReport
    from vtcode.sdk.options import Options

TransportName = Literal["in-process", "subprocess"]

__all__ = ["Transport", "TransportError", "TransportName", "open_transport"]


class Transport(Protocol):
    """One session's runtime, wherever it runs: operations in, events out."""

    @property
    def id(self) -> str:
        """The session id."""
        ...

    async def submit(self, op: Op) -> None:
        """Hand the runtime one operation."""
        ...

    def events(self) -> AsyncIterator[Event]:
        """The session's events until it closes; raises `TransportError` when the transport breaks."""
        ...

    async def aclose(self) -> None:
        """Interrupt a running turn and close the session (and its process, if any)."""
        ...

    async def usage(self) -> UsageReport:
        """The session's account: its model calls by source and model, their tokens and cost."""
        ...

    def set_output_schema(self, schema: Mapping[str, Any] | None) -> None:
        """Hold the answers of turns started from now on to `schema` (None: free text)."""
        ...

    def on_failure(self, sink: Callable[[BaseException | None], None]) -> None:
        """Call `sink` with the exception behind each turn's end (None: none), before its `turn.failed`
        reaches `events()` (`TurnResult.cause`)."""
        ...


async def open_transport(options: Options, *, resume: str | None) -> Transport:
    """Open (or resume) a session over the transport `options.transport` names."""
    if options.transport == "subprocess":
        from vtcode.sdk.transport.acp_child import start_child

        started = await start_child(options)
        try:
            # Loaded once the child runs: the child imports the same ACP library meanwhile (acp_child).
            from vtcode.sdk.transport.acp_subprocess import open_subprocess
        except BaseException:
            await started.process.close()
            raise
        return await open_subprocess(options, started, resume=resume)
    from vtcode.sdk.transport.in_process import open_in_process

    return await open_in_process(options, resume=resume)
