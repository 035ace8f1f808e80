"""The in-process transport: the runtime's `Session` in the program's own process and loop."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from typing import TYPE_CHECKING, Any

from vtcode.protocol.events import Event
from vtcode.protocol.ops import Op
from vtcode.sdk.hooks import install
from vtcode.sdk.options import Options, runtime_options

if TYPE_CHECKING:
    from vtcode.protocol.usage import UsageReport
    from vtcode.runtime.hooks import TurnEnd
    from vtcode.runtime.session import Session as RuntimeSession


class InProcess:
    """A runtime session driven directly: its operations and events, no framing in between."""

    def __init__(self, runtime: RuntimeSession) -> None:
        self.runtime = runtime

    @property
    def id(self) -> str:
        """The session id."""
        return self.runtime.id

    async def submit(self, op: Op) -> None:
        """Hand the runtime one operation."""
        await self.runtime.submit(op)

    def events(self) -> AsyncIterator[Event]:
        """The runtime's event stream."""
        return self.runtime.events()

    async def usage(self) -> UsageReport:
        """The runtime session's account (what `/usage` shows)."""
        return self.runtime.usage()

    async def aclose(self) -> None:
        """Close the runtime session (a running turn is interrupted, its commands ended)."""
        await self.runtime.aclose()

    def set_output_schema(self, schema: Mapping[str, Any] | None) -> None:
        """Hold the answers of turns started from now on to `schema` (None: free text)."""
        self.runtime.set_output_schema(schema)

    def on_failure(self, sink: Callable[[BaseException | None], None]) -> None:
        """Report each turn's ending exception from the runtime's first end-of-turn hook."""

        async def note(end: TurnEnd) -> None:
            sink(end.error)

        # First of the end-of-turn hooks: it runs before the reader task sees the `turn.failed` the
        # runtime emitted just before them (the turn task does not yield in between).
        self.runtime.hooks.end_of_turn.insert(0, note)


async def open_in_process(options: Options, *, resume: str | None) -> InProcess:
    """Open (or resume) a runtime session in this process."""
    from vtcode.runtime.session import Session as RuntimeSession

    opened: list[RuntimeSession] = []
    built = runtime_options(options, session_id=lambda: opened[0].id if opened else "", resume=resume)
    runtime = await RuntimeSession.open(built, client=options.model_client)
    opened.append(runtime)
    names = [t.spec.name for t in options.tools if t.kind != "read" and not t.needs_approval]
    # The program registered these itself: asking about them would ask the program about its own code.
    runtime.allow_tools(names)
    if options.permission is not None:
        # The program learns (`PolicyShadowed`) when a rule or the mode decides before its callback.
        runtime.report_shadowed_policy()
    if options.hooks is not None:
        install(options.hooks, runtime.hooks)
    return InProcess(runtime)
