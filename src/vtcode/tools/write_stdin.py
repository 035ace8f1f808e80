"""`write_stdin`: talk to a running command session: send input, poll, wait for its end, or kill it.

`wait` is the primitive for long commands: it blocks until the command exits or its deadline passes,
never kills, and returns only the output produced since the previous call (SPEC section 8.2).
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

import msgspec

from vtcode.core.exec.wait import (
    POLL_YIELD_DEFAULT_MS,
    WAIT_CEILING_SECONDS,
    WAIT_DEFAULT_SECONDS,
    WRITE_YIELD_DEFAULT_MS,
    clamp_yield_ms,
    wait_deadline,
)
from vtcode.exec.errors import SessionError
from vtcode.exec.manager import SessionManager
from vtcode.protocol.errors import ToolError
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import NOT_ADVERTISED, tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome
from vtcode.tools.exec_command import MaxOutputTokens, error_outcome, outcome, preview_limit

if TYPE_CHECKING:
    from vtcode.core.exec.result import CallKind

NAME = "write_stdin"

Action = Literal["write", "poll", "wait", "kill"]
_ACTIONS: tuple[Action, ...] = get_args(Action)
_SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    session_id: Annotated[str, msgspec.Meta(description="The session_id from exec_command.")]
    # Any case and spacing is taken (`_action`), so the enum is advertised, not checked.
    action: Annotated[
        str | None,
        msgspec.Meta(description="What to do (see above).", extra_json_schema={"enum": list(_ACTIONS)}),
    ] = None
    chars: Annotated[str | None, msgspec.Meta(description="Input to send (action write).")] = None
    # A fraction of a second is taken and the deadline clamped (`wait_deadline`), never refused; the
    # model is told of whole seconds within the default ceiling.
    wait_timeout_seconds: Annotated[
        float | None,
        msgspec.Meta(
            description="Deadline of a wait, in seconds; the command keeps running after it.",
            extra_json_schema={
                "type": "integer",
                "minimum": 1,
                "maximum": WAIT_CEILING_SECONDS,
                "default": WAIT_DEFAULT_SECONDS,
            },
        ),
    ] = None
    # The reference's alias for wait_timeout_seconds.
    timeout_seconds: Annotated[float | None, NOT_ADVERTISED] = None
    # Clamped like exec_command's (`clamp_yield_ms`), never refused.
    yield_time_ms: Annotated[
        int | None,
        msgspec.Meta(
            description="How long write (default 250) and poll (default 1000) collect output.",
            extra_json_schema={"minimum": 0},
        ),
    ] = None
    max_output_tokens: MaxOutputTokens = None


_SPEC = ToolSpec(
    name=NAME,
    description=(
        "Interact with a command session started by exec_command. action: write sends chars verbatim "
        "to its input (no newline is added; include \\n to press Enter); poll returns new output after "
        "yield_time_ms; wait blocks until the command exits or wait_timeout_seconds pass (default 600, "
        "at most 3600) and never kills it; kill ends the command and every process it started. Without "
        "action: write when chars is non-empty, else poll. Every call returns only the output produced "
        "since the previous call. For a long build, test run or server start, use one wait (pass the "
        "previous result's next_wait_args) instead of repeated polls: polling wastes turns and tokens."
    ),
    parameters=tool_parameters(_Args),
)


def _action(args: _Args) -> Action:
    if args.action is None or not args.action.strip():
        return "write" if args.chars else "poll"
    name = args.action.strip().lower()
    for action in _ACTIONS:
        if name == action:
            if args.chars and action != "write":
                raise ToolError(f"chars is only sent with action write, not {action}")
            return action
    raise ToolError(f"unknown action {args.action!r}; use one of: {', '.join(_ACTIONS)}")


def _session_id(raw: str) -> str:
    session_id = raw.strip()
    if _SESSION_ID.fullmatch(session_id) is None:
        raise ToolError(
            f"Invalid session_id for write_stdin: '{raw}'. "
            "Expected an ASCII token (letters, digits, '-', '_')."
        )
    return session_id


class WriteStdinTool:
    """Writes to, polls, waits on and kills command sessions."""

    def __init__(self, manager: SessionManager) -> None:
        self.manager = manager
        # The unfinished line typed into each session so far: deny rules check lines typed in pieces.
        self._typed: dict[str, str] = {}

    spec = _SPEC
    # Input goes to a session whose command was approved when it started.
    kind: ToolKind = "session_input"

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """Shown as the session's command; approvals judge the typed input."""
        raw = arguments.get("session_id")
        session = self.manager.sessions.get(raw.strip()) if isinstance(raw, str) else None
        command = session.info.command if session is not None else f"write_stdin {raw or ''}".rstrip()
        chars = arguments.get("chars")
        requested = arguments.get("action")
        action = requested if requested in _ACTIONS else ("write" if chars else "poll")
        if not isinstance(chars, str) or not chars or action != "write":
            return CallDescription(display=command, action=str(action))
        # Input may come in pieces (`rm -` then `rf x`): approvals judge it after what was typed before.
        subject = self.pending_input(arguments) + chars
        return CallDescription(display=command, subject=subject, action="write")

    def pending_input(self, arguments: dict[str, Any]) -> str:
        """The unfinished line typed into the addressed session by earlier writes (no Enter yet)."""
        raw = arguments.get("session_id")
        return self._typed.get(raw.strip(), "") if isinstance(raw, str) else ""

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Carry out the action and report the session's state and new output."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            args = parse_arguments(arguments, _Args)
            session_id = _session_id(args.session_id)
            action = _action(args)
            limit = preview_limit(args.max_output_tokens)
            session = self.manager.get(session_id)
        except (ToolError, SessionError) as exc:
            return error_outcome(NAME, exc.message)
        settings = self.manager.settings
        deadline_seconds: float | None = None
        kind: CallKind = action
        if action == "wait":
            requested = (
                args.wait_timeout_seconds if args.wait_timeout_seconds is not None else args.timeout_seconds
            )
            deadline_seconds = wait_deadline(
                requested, settings.wait_default_seconds, settings.wait_ceiling_seconds
            )
            window = deadline_seconds
        elif action == "write":
            window = clamp_yield_ms(args.yield_time_ms, WRITE_YIELD_DEFAULT_MS) / 1000
        else:
            window = clamp_yield_ms(args.yield_time_ms, POLL_YIELD_DEFAULT_MS) / 1000
        try:
            report = await session.call(
                kind,
                started=started,
                deadline=started + window,
                limit=limit,
                sink=ctx.progress,
                chars=(args.chars or "") if action == "write" else "",
            )
        except SessionError as exc:
            return error_outcome(NAME, exc.message)
        if action == "write" and args.chars:
            from vtcode.core.typed_input import type_input  # with the first typed input

            self._typed[session_id] = type_input(self._typed.get(session_id, ""), args.chars).pending
        return outcome(
            self.manager,
            session,
            kind,
            report,
            waited=action == "wait",
            wait_deadline=deadline_seconds,
        )
