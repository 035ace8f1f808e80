"""One MCP server's lifecycle: start it, list its tools, call them, restart it after it died, close it.

The SDK's `Client` runs its transport in a task group that must be entered and left by the same task,
so each connection owns one task that opens the client, reports ready, and holds it until closed.
Tool calls come from turn tasks and go through the open client. A stdio server runs in its own session
(process group); the SDK kills that whole tree when the client closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, Literal

import anyio
import httpx2
import mcp_types
from mcp.client.session import IncomingMessage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from mcp import Client, MCPError, StdioServerParameters, stdio_client
from vtcode.mcp.servers import ServerDefinition

log = logging.getLogger(__name__)


class _DropParseTracebacks(logging.Filter):
    """The SDK logs a whole traceback for every non-JSON-RPC stdout line; `_on_message` says it once."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Failed to parse JSONRPC message")


logging.getLogger("mcp.client.stdio").addFilter(_DropParseTracebacks())


def _offending_line(error: Exception) -> str:
    """The text a server printed, from the SDK's parse error (pydantic keeps the input), shortened."""
    errors = getattr(error, "errors", None)
    line: object = None
    if callable(errors):
        try:
            found = errors()
            line = found[0].get("input") if found else None
        except (TypeError, ValueError, AttributeError, IndexError):
            line = None
    text = line if isinstance(line, str) else str(error)
    text = " ".join(text.split())
    return text if len(text) <= 120 else text[:119] + "…"


State = Literal["starting", "ready", "failed", "stopped"]
_STDERR_TAIL = 2000
# Longer than the SDK's own bounded shutdown of a stdio server (stdin closed, 2 s grace, SIGTERM,
# 2 s, SIGKILL, 2 s to reap), so a close does not cut it short.
_CLOSE_SECONDS = 10.0


class McpCallError(Exception):
    """A call that produced no result: timeout, protocol error, or a server that went away."""


class Connection:
    """A connection to one configured server; `start` it, await `ready`, then `call` its tools."""

    def __init__(
        self,
        definition: ServerDefinition,
        *,
        env: Mapping[str, str],
        workspace: Path,
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        self.definition = definition
        self.state: State = "stopped"
        self.error = ""
        self.tools: tuple[mcp_types.Tool, ...] = ()
        # Bumped whenever `tools` changes (a start, a restart, `notifications/tools/list_changed`).
        self.generation = 0
        self.restarts = 0
        self._env = env
        self._workspace = workspace
        self._on_change = on_change
        self._client: Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._scope: anyio.CancelScope | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._errlog: IO[str] | None = None
        self._relist: asyncio.Task[None] | None = None
        self._restarting = asyncio.Lock()
        self._http: httpx2.AsyncClient | None = None
        self._said_stdout_noise = False

    @property
    def name(self) -> str:
        """The server's name in the config."""
        return self.definition.name

    def start(self) -> None:
        """Begin connecting in the background; `wait_ready` tells when it is done (or failed)."""
        self.state = "starting"
        self.error = ""
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name=f"vtcode-mcp-{self.name}")

    async def wait_ready(self, within: float | None = None) -> bool:
        """Wait until the server is ready or failed (at most `within` seconds); whether it is ready."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(within):
                await self._ready.wait()
        return self.state == "ready"

    async def call(self, tool: str, arguments: dict[str, Any]) -> mcp_types.CallToolResult:
        """Call `tool`; a server that died (or never started) is started again first.

        Raises McpCallError for a call without a result (the caller turns it into a tool result).
        """
        settings = self.definition.settings
        async with self._restarting:
            # One restart for calls that arrive together; a start under way is waited for, not redone.
            if self.state in ("failed", "stopped"):
                await self.restart()
        if self.state != "ready" and not await self.wait_ready(settings.startup_timeout_seconds):
            raise McpCallError(f"MCP server {self.name!r} is not running: {self.error or self.state}")
        client = self._client
        if client is None:  # pragma: no cover - ready implies a client
            raise McpCallError(f"MCP server {self.name!r} is not connected")
        try:
            async with asyncio.timeout(settings.tool_timeout_seconds):
                return await client.call_tool(tool, arguments)
        except TimeoutError:
            raise McpCallError(
                f"{tool} on MCP server {self.name!r} did not answer within "
                f"{settings.tool_timeout_seconds:g} s (mcp_servers.<name>.tool_timeout_seconds)"
            ) from None
        except Exception as exc:
            if self._dead() or _connection_lost(exc):
                self._fail(f"the server stopped during the call: {_describe(exc)}")
                raise McpCallError(
                    f"MCP server {self.name!r} stopped during the call ({_describe(exc)}); "
                    "it is started again on the next call"
                ) from exc
            raise McpCallError(f"{tool} on MCP server {self.name!r} failed: {_describe(exc)}") from exc

    async def restart(self) -> None:
        """Close what is left of the connection and start it again."""
        await self.aclose()
        self.restarts += 1
        self.start()

    async def aclose(self) -> None:
        """Close the client (the SDK ends a stdio server's process tree); safe to call twice."""
        self._stop.set()
        if self.state == "starting" and self._scope is not None:
            # Still connecting: nothing to close politely; cancelling ends the spawned process tree.
            self._scope.cancel()
        for task in (self._relist, self._task):
            if task is not None and not task.done():
                try:
                    async with asyncio.timeout(_CLOSE_SECONDS):
                        await asyncio.shield(task)
                except (TimeoutError, asyncio.CancelledError):
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task
        self._task = None
        if self.state != "failed":
            self.state = "stopped"

    def stderr_tail(self) -> str:
        """The last lines a stdio server wrote to stderr."""
        if self._errlog is None:
            return ""
        try:
            self._errlog.flush()
            self._errlog.seek(0)
            text = self._errlog.read()
        except (OSError, ValueError):
            return ""
        return text[-_STDERR_TAIL:].strip()

    # -- inside ---------------------------------------------------------------------------------------

    async def _run(self) -> None:
        # Cancelled through an anyio scope, never task.cancel(): the SDK's transport ends the server in a
        # shielded anyio scope, which a native cancellation breaks through, leaving the server running
        # and the close waiting forever for its output to end.
        with anyio.CancelScope() as self._scope:
            await self._serve()

    async def _serve(self) -> None:
        settings = self.definition.settings
        client: Client | None = None
        entered = False
        timed_out = f"did not start within {settings.startup_timeout_seconds:g} s (startup_timeout_seconds)"
        # Not asyncio.timeout (see `_run`), nor an anyio deadline scope: the client's task group opened
        # inside it outlives it, which anyio refuses. The deadline cancels the connection's own scope.
        expired = False

        def expire() -> None:
            nonlocal expired
            expired = True
            if self._scope is not None:
                self._scope.cancel()

        timer = asyncio.get_running_loop().call_later(settings.startup_timeout_seconds, expire)
        try:
            try:
                client = self._client_for()
                await client.__aenter__()
                entered = True
                tools = await _list_tools(client)
            finally:
                timer.cancel()
            self._client = client
            self._set_tools(tools)
            self.state = "ready"
            self._ready.set()
            await self._stop.wait()
        except asyncio.CancelledError:
            self._fail(self.error or (timed_out if expired else "stopped while starting"))
            raise
        except Exception as exc:
            self._fail(_describe(exc))
        finally:
            self._client = None
            self._ready.set()
            if client is not None and entered:
                with contextlib.suppress(Exception):
                    await client.__aexit__(None, None, None)
            if self._errlog is not None:
                self._errlog.close()
            http, self._http = self._http, None
            if http is not None:
                with contextlib.suppress(Exception):
                    await http.aclose()

    def _fail(self, error: str) -> None:
        tail = self.stderr_tail()
        self.error = f"{error}; stderr: {tail}" if tail else error
        self.state = "failed"
        self._stop.set()
        self._ready.set()

    def _dead(self) -> bool:
        """Whether the server is gone (its task ended), rather than one call having failed."""
        task = self._task
        return task is None or task.done() or self._client is None

    def _set_tools(self, tools: tuple[mcp_types.Tool, ...]) -> None:
        self.tools = tools
        self.generation += 1
        self._on_change()

    def _client_for(self) -> Client:
        settings = self.definition.settings
        if settings.url:
            headers = dict(settings.headers)
            if settings.bearer_token_env_var:
                token = self._env.get(settings.bearer_token_env_var, "")
                if not token:
                    raise RuntimeError(f"the environment variable {settings.bearer_token_env_var} is not set")
                headers["Authorization"] = f"Bearer {token}"
            # Ours to close: the SDK closes only an HTTP client it created itself.
            http: httpx2.AsyncClient = create_mcp_http_client(headers=headers)
            self._http = http
            return Client(
                streamable_http_client(settings.url, http_client=http),
                message_handler=self._on_message,
                mode="legacy",
            )
        # Closed by `_run` when the connection ends; the server's stderr goes here for failure notices.
        self._errlog = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")  # noqa: SIM115
        cwd = Path(settings.cwd).expanduser() if settings.cwd else self._workspace
        params = StdioServerParameters(
            command=settings.command or "",
            args=list(settings.args),
            # The SDK adds a safe subset of the environment (PATH, HOME, ...); provider keys stay out.
            env=dict(settings.env),
            cwd=cwd if cwd.is_absolute() else self._workspace / cwd,
        )
        return Client(
            stdio_client(params, errlog=self._errlog), message_handler=self._on_message, mode="legacy"
        )

    async def _on_message(self, message: IncomingMessage) -> None:
        if isinstance(message, Exception):
            # A banner or log line a server prints on stdout: skipped by the SDK; said once, in one line.
            if not self._said_stdout_noise:
                self._said_stdout_noise = True
                log.warning(
                    "MCP server %s printed a line that is not JSON-RPC on its stdout (ignored; servers "
                    "should log to stderr): %s",
                    self.name,
                    _offending_line(message),
                )
            return
        if isinstance(message, mcp_types.ToolListChangedNotification):
            # Re-listed in the background; the new list joins at the next request boundary.
            self._relist = asyncio.create_task(self._refresh_tools())

    async def _refresh_tools(self) -> None:
        client = self._client
        if client is None:
            return
        try:
            async with asyncio.timeout(self.definition.settings.startup_timeout_seconds):
                self._set_tools(await _list_tools(client, refresh=True))
        except Exception as exc:
            log.warning("MCP server %s: listing changed tools failed: %s", self.name, _describe(exc))


async def _list_tools(client: Client, *, refresh: bool = False) -> tuple[mcp_types.Tool, ...]:
    tools: list[mcp_types.Tool] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor, cache_mode="refresh" if refresh else "use")
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tuple(tools)


def _connection_lost(exc: BaseException) -> bool:
    """Whether `exc` says the transport is gone (not that the server refused one request)."""
    if isinstance(exc, MCPError):
        return exc.error.code == mcp_types.CONNECTION_CLOSED
    # Anything else out of the client is the transport failing (a protocol error is an MCPError).
    return True


def _describe(exc: BaseException) -> str:
    """One line for an exception, looking inside exception groups (anyio task groups raise them)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
