"""`exec_command`: start a shell command as a session and return after a short yield or at its exit.

A command that outlives the yield keeps running; the model follows it with `write_stdin` (action
`wait` to block until it ends). Its whole output is spooled to a file the result points at once it is
safe to read (SPEC section 8).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any

import msgspec

from vtcode.core.exec.wait import (
    BYTES_PER_TOKEN,
    EXEC_YIELD_DEFAULT_MS,
    MAX_OUTPUT_TOKENS_DEFAULT,
    MAX_OUTPUT_TOKENS_LIMIT,
    clamp_yield_ms,
    max_output_tokens,
)
from vtcode.core.sandbox_policy import denial_note
from vtcode.exec.errors import SessionError
from vtcode.exec.manager import SessionManager
from vtcode.protocol.errors import ToolError
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome
from vtcode.tools.workspace import WorkspacePath, resolve

if TYPE_CHECKING:
    from vtcode.core.exec.result import CallKind
    from vtcode.exec.session import CallReport, CommandSession

NAME = "exec_command"

# The preview bound of `exec_command` and `write_stdin` calls. Checked by hand (`preview_limit`): lax
# argument parsing would accept "100" or 1.5, which the reference refuses; so the type is Any and the
# schema says the integer the model must send.
MaxOutputTokens = Annotated[
    Any,
    msgspec.Meta(
        description="Bound on the returned output preview, in tokens (about 4 bytes each).",
        extra_json_schema={
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_OUTPUT_TOKENS_LIMIT,
            "default": MAX_OUTPUT_TOKENS_DEFAULT,
        },
    ),
]


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    cmd: Annotated[str, msgspec.Meta(description="The shell command line.")]
    workdir: Annotated[
        str | None,
        msgspec.Meta(description="Directory to run in, relative to the workspace (default: its root)."),
    ] = None
    tty: Annotated[
        bool,
        msgspec.Meta(description="Run in a pseudo-terminal (for interactive programs). Default false."),
    ] = False
    # Clamped into 250-30000 ms (`clamp_yield_ms`), never refused: the schema only advertises it.
    yield_time_ms: Annotated[
        int | None,
        msgspec.Meta(
            description="How long to wait for the command before returning (250-30000 ms).",
            extra_json_schema={"minimum": 0, "default": EXEC_YIELD_DEFAULT_MS},
        ),
    ] = None
    max_output_tokens: MaxOutputTokens = None


_SPEC = ToolSpec(
    name=NAME,
    description=(
        "Start a shell command (bash -c) in the workspace as a command session, with stdout and stderr "
        "merged. It returns when the command exits or after yield_time_ms (default 10000, 250-30000), "
        "whichever comes first; a command still running keeps running (is_exited: false). To follow it, "
        "call write_stdin with the result's next_wait_args: action wait blocks until the command "
        "finishes or the deadline passes (default 600 s) and never kills it. Prefer one wait over "
        "repeated polls. Use tty: true only for programs that need a terminal. The preview keeps the "
        "start and the end of long output; the complete output is in the file named by spool_path "
        "(read it with rg, sed -n or tail). Use read_file/list_files/grep_files to read files."
    ),
    parameters=tool_parameters(_Args),
)


def preview_limit(value: object) -> int:
    """The preview budget in bytes for a `max_output_tokens` argument (ToolError when invalid)."""
    try:
        return max_output_tokens(value) * BYTES_PER_TOKEN
    except ValueError as exc:
        raise ToolError(str(exc)) from None


def error_outcome(tool_name: str, message: str) -> ToolOutcome:
    """A failed call as a JSON error object (the model's copy carries only the message)."""
    from vtcode.core.exec.model_view import encode_for_model
    from vtcode.core.exec.result import encode, error_result

    error = error_result(tool_name, message)
    return ToolOutcome(
        content=encode(error), model_content=encode_for_model(error), is_error=True, display_output=message
    )


def outcome(
    manager: SessionManager,
    session: CommandSession,
    kind: CallKind,
    report: CallReport,
    *,
    touched: tuple[str, ...] = (),
    waited: bool = False,
    wait_deadline: float | None = None,
    confined: bool = True,
) -> ToolOutcome:
    """The tool outcome of a session call; the session is collected if its end was just reported."""
    # The result model loads with the first command, not at start-up.
    from vtcode.core.exec.model_view import encode_for_model
    from vtcode.core.exec.result import CallView, build_result, encode

    manager.collect(session)
    call = CallView(
        kind=kind,
        wall_time=report.wall_time,
        preview=report.preview,
        wait_hint_seconds=manager.settings.wait_default_seconds,
        waited_seconds=report.wall_time if waited else None,
        wait_deadline_seconds=wait_deadline,
    )
    result = build_result(report.view, call)
    # An unconfined command's "permission denied" is not the sandbox's doing.
    note = (
        denial_note(manager.settings.sandbox, result.output, result.exit_code if result.is_exited else None)
        if confined
        else None
    )
    if note is not None:
        result = msgspec.structs.replace(result, sandbox_note=note)
    failed = result.is_exited and result.exit_code != 0 and kind != "kill"
    return ToolOutcome(
        content=encode(result),
        model_content=encode_for_model(result),
        is_error=failed,
        touched_paths=touched,
        exit_code=result.exit_code,
        display_output=result.output,
        extra={"session_id": session.id, "command": session.info.command},
    )


def resolve_workdir(ctx: ToolContext, raw: str | None) -> WorkspacePath:
    """The working directory inside the workspace, with the reference's error wording."""
    name = raw or "."
    try:
        workdir = resolve(ctx.workspace, name)
    except ToolError as exc:
        raise ToolError(f"workdir '{name}' escapes the workspace root: {exc.message}") from None
    if not workdir.real.exists():
        raise ToolError(f"workdir '{name}' does not exist")
    if not workdir.real.is_dir():
        raise ToolError(f"workdir '{name}' is not a directory")
    return workdir


class ExecCommandTool:
    """Starts command sessions."""

    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager

    spec = _SPEC
    # Commands may change anything.
    kind: ToolKind = "command"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The command line, which approvals judge."""
        cmd = arguments.get("cmd")
        command = cmd if isinstance(cmd, str) else ""
        workdir = arguments.get("workdir")
        paths = (workdir,) if isinstance(workdir, str) and workdir else ()
        return CallDescription(display=command, subject=command, paths=paths)

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Start the command and report after the yield window or its exit."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            args = parse_arguments(arguments, _Args)
            if not args.cmd.strip():
                raise ToolError("Command cannot be empty")
            limit = preview_limit(args.max_output_tokens)
            workdir = resolve_workdir(ctx, args.workdir)
            manager = self.manager
            session = await manager.start(
                args.cmd,
                cwd=workdir.real,
                working_directory=workdir.display,
                tty=args.tty,
                confined=not ctx.unconfined,
                with_input=not ctx.typed_by_user,
            )
        except (ToolError, SessionError) as exc:
            return error_outcome(NAME, exc.message)
        yield_seconds = clamp_yield_ms(args.yield_time_ms, EXEC_YIELD_DEFAULT_MS) / 1000
        try:
            report = await session.call(
                "start",
                started=started,
                deadline=started + yield_seconds,
                limit=limit,
                sink=ctx.progress,
            )
        except asyncio.CancelledError:
            # The model never learned this session's id, so nothing could ever wait on or kill it.
            await asyncio.shield(manager.discard(session))
            raise
        return outcome(
            manager, session, "start", report, touched=(workdir.display,), confined=not ctx.unconfined
        )
