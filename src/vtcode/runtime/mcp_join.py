"""MCP servers in a session: started with it, their tools joined at request boundaries, closed with it.

Servers start in the background while the session opens. The first model request waits for servers
still starting up to `mcp.startup_grace_seconds`, then goes without them; a server that becomes ready
later (or whose tool list changes) joins at the next request boundary, announced by `tools.changed`. That is
the one place where the tool list, and so the cached prompt prefix, changes within a session (SPEC
section 4). A server that fails is a warning naming it and its stderr tail, never a failed turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from vtcode.config.schema import McpSettings
from vtcode.protocol.events import ToolsChanged
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.hooks import BeforeRequest, HistoryReplacement
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.runtime.turn import TurnRunner
from vtcode.tools.base import Tool

if TYPE_CHECKING:
    from vtcode.mcp.manager import McpManager
    from vtcode.runtime.wiring import Wiring


class McpJoin:
    """Owns a session's MCP manager and keeps the runner's and dispatcher's tool lists in step with it."""

    def __init__(
        self,
        manager: McpManager,
        *,
        settings: McpSettings,
        runner: TurnRunner,
        dispatcher: ToolDispatcher,
        emitter: Emitter,
        builtin: Sequence[Tool],
    ) -> None:
        self.manager = manager
        self._grace = settings.startup_grace_seconds
        self._runner = runner
        self._dispatcher = dispatcher
        self._emitter = emitter
        self._builtin = tuple(builtin)
        self._waited = False
        self._joined: dict[str, int] = {}
        self._reported: dict[str, str] = {}

    def start(self) -> None:
        """Start every server in the background."""
        self.manager.start()

    async def before_request(self, view: BeforeRequest) -> HistoryReplacement | None:
        """The turn loop's hook: wait out the grace once, then bring the tool list up to date."""
        if not self._waited:
            self._waited = True
            await self.manager.wait_started(self._grace)
        self.sync()
        return None

    def sync(self) -> None:
        """Report servers that failed, and swap in the current tools when a server's list changed."""
        for status in self.manager.statuses():
            if status.state == "failed" and self._reported.get(status.name) != status.error:
                self._reported[status.name] = status.error
                self._emitter.warn(f"MCP server {status.name!r} is not available: {status.error}")
        generations = {c.name: c.generation for c in self.manager.connections if c.generation > 0}
        if generations == self._joined:
            return
        tools = self.manager.tools()
        changed = sorted(name for name, gen in generations.items() if self._joined.get(name) != gen)
        self._joined = generations
        before = set(self._dispatcher.tools)
        all_tools: list[Tool] = [*self._builtin, *tools]
        self._runner.tools = tuple(t.spec for t in all_tools)
        self._dispatcher.tools = {t.spec.name: t for t in all_tools}
        after = set(self._dispatcher.tools)
        self._emitter.emit(
            ToolsChanged(
                source=", ".join(f"MCP server {name!r}" for name in changed),
                added=tuple(sorted(after - before)),
                removed=tuple(sorted(before - after)),
                tools=len(all_tools),
            )
        )

    async def aclose(self) -> None:
        """Close every server and its process group."""
        await self.manager.aclose()


def start_mcp(wiring: Wiring, emitter: Emitter) -> McpJoin:
    """Import the MCP client (only now: it costs 0.8 s), start the planned servers, hook the turn loop.

    The join's hook goes first before each request, so compaction and the like see the request as it
    will be sent.
    """
    from vtcode.mcp.manager import McpManager

    options = wiring.options
    settings = options.settings.mcp
    manager = McpManager(wiring.mcp, env=options.env, workspace=options.workspace, settings=settings)
    join = McpJoin(
        manager,
        settings=settings,
        runner=wiring.runner,
        dispatcher=wiring.dispatcher,
        emitter=emitter,
        builtin=wiring.toolset.tools,
    )
    join.start()
    wiring.hooks.before_request.insert(0, join.before_request)
    return join
