"""The model-facing result of `exec_command` and `write_stdin`: one JSON object per call.

Field names follow the reference (exec-spool-release.md section 2.6). Status comes first and `output`
last, so the model reads whether the command exited, what was cut and where the full output is before
the preview itself (reference section 9.3, item 4).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

import msgspec

from vtcode.core.exec.spool import SpoolState, SpoolView, spool_fields
from vtcode.core.preview import Preview

Backend = Literal["pipe", "pty"]
CallKind = Literal["start", "write", "poll", "wait", "kill"]

# Exit status of a shell that could not find the program (reference section 2.6, `critical_note`).
NOT_FOUND_EXIT = 127


class NextWaitArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Arguments for the `write_stdin` call that blocks until the command finishes."""

    session_id: str
    action: str = "wait"
    wait_timeout_seconds: int = 600


class NextContinueArgs(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Arguments for a `write_stdin` poll of the same session."""

    session_id: str


class ExecResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """One call's result; optional fields are left out when they do not apply."""

    success: bool
    session_id: str
    command: str
    backend: Backend
    working_directory: str
    rows: int | None = None
    cols: int | None = None
    is_exited: bool
    exit_code: int | None = None
    signal: str | None = None
    output_drained: bool
    wall_time: float
    waited_seconds: float | None = None
    wait_deadline_seconds: float | None = None
    process_id: str | None = None
    total_output_bytes: int
    output_truncated: bool
    truncated: bool | None = None
    omitted_bytes: int | None = None
    omitted_lines: int | None = None
    spool_path: str | None = None
    spool_complete: bool | None = None
    spool_pending: bool | None = None
    spool_pending_reason: str | None = None
    spooled_bytes: int | None = None
    spool_error: str | None = None
    spool_truncated_bytes: int | None = None
    spool_note: str | None = None
    critical_note: str | None = None
    # Set when a failed command's output looks like the OS sandbox refused it (core.sandbox_policy).
    sandbox_note: str | None = None
    next_action: str | None = None
    next_action_hint: str | None = None
    next_continue_args: NextContinueArgs | None = None
    next_wait_args: NextWaitArgs | None = None
    output: str


class ErrorDetail(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What went wrong, for the model."""

    tool_name: str
    message: str


class ExecError(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A call that could not be carried out (bad arguments, unknown session, session limit)."""

    error: ErrorDetail
    success: bool = False


class CommandInfo(msgspec.Struct, frozen=True, kw_only=True):
    """What a session is, fixed at its start (kept by `exec/` for the session's life)."""

    session_id: str
    command: str
    backend: Backend
    working_directory: str
    # `[context.dynamic] enabled`, and the command is not itself a read of a spool file.
    spool_advertise: bool
    # Output longer than this is big enough for a result to point at the spool.
    spool_threshold: int
    # The terminal size of a tty session (None for pipes).
    rows: int | None = None
    cols: int | None = None


class SessionView(CommandInfo, frozen=True, kw_only=True):
    """What a session looks like at the end of a call: what it is, and its state now (built by `exec/`)."""

    returncode: int | None
    signal_name: str | None
    drained: bool
    total_output_bytes: int
    # Sticky: some earlier preview of this session was cut, or the spool failed or was capped.
    output_truncated: bool
    spool: SpoolState
    spool_path: str


@dataclass(frozen=True)
class CallView:
    """What one call did: its kind, duration and the preview of the output it collected."""

    kind: CallKind
    wall_time: float
    preview: Preview
    wait_hint_seconds: int = 600
    waited_seconds: float | None = None
    wait_deadline_seconds: float | None = None


def build_result(session: SessionView, call: CallView) -> ExecResult:
    """Assemble the result object from the session's state and the call's preview."""
    exited = session.returncode is not None
    preview = call.preview
    truncated = session.output_truncated or preview.truncated
    fields = spool_fields(
        SpoolView(
            state=session.spool,
            path=session.spool_path,
            process_exited=exited,
            stream_drained=session.drained,
            big_or_truncated=session.total_output_bytes > session.spool_threshold or truncated,
            advertise=session.spool_advertise,
        )
    )
    exit_code = None
    if session.returncode is not None:
        exit_code = session.returncode if session.returncode >= 0 else -1
    output = preview.text
    if fields.spool_truncated_bytes:
        output = (
            f"[spool capped at {session.spool.cap_bytes} bytes: {fields.spool_truncated_bytes} later bytes "
            "were not recorded in the spool file]\n" + output
        )
    not_found = exit_code == NOT_FOUND_EXIT
    running = not exited
    sid = session.session_id
    return ExecResult(
        success=True,
        session_id=sid,
        command=session.command,
        backend=session.backend,
        working_directory=session.working_directory,
        rows=session.rows,
        cols=session.cols,
        is_exited=exited,
        exit_code=exit_code,
        signal=session.signal_name,
        output_drained=session.drained,
        wall_time=round(call.wall_time, 3),
        waited_seconds=None if call.waited_seconds is None else round(call.waited_seconds, 3),
        wait_deadline_seconds=call.wait_deadline_seconds,
        process_id=sid if running and call.kind == "start" else None,
        total_output_bytes=session.total_output_bytes,
        output_truncated=truncated or fields.spool_error is not None or bool(fields.spool_truncated_bytes),
        truncated=True if preview.truncated else None,
        omitted_bytes=preview.omitted_bytes if preview.truncated else None,
        omitted_lines=preview.omitted_lines if preview.truncated else None,
        spool_path=fields.spool_path,
        spool_complete=fields.spool_complete,
        spool_pending=fields.spool_pending,
        spool_pending_reason=fields.spool_pending_reason,
        spooled_bytes=fields.spooled_bytes,
        spool_error=fields.spool_error,
        spool_truncated_bytes=fields.spool_truncated_bytes,
        spool_note=_spool_note(fields.spool_path, fields.spool_complete, fields.spool_pending),
        critical_note=f"Command `{_program(session.command)}` was not found in PATH." if not_found else None,
        next_action="Check the program name, install it, or call it by its full path." if not_found else None,
        next_action_hint=_hint(call) if running else None,
        next_continue_args=NextContinueArgs(sid) if running else None,
        next_wait_args=(
            NextWaitArgs(sid, wait_timeout_seconds=call.wait_hint_seconds)
            if running or fields.spool_pending
            else None
        ),
        output=output,
    )


def _spool_note(path: str | None, complete: bool | None, pending: bool | None) -> str | None:
    if pending:
        return (
            "The command exited but a background process still holds its output open; the spool is "
            "not complete yet. Call write_stdin with next_wait_args to get the complete file, or kill "
            "the session."
        )
    if path is None:
        return None
    if complete:
        return f"The complete output is in `{path}`; read parts of it with rg, sed -n or tail."
    return f"`{path}` holds the output so far (the command is still running and appending to it)."


def _hint(call: CallView) -> str:
    return (
        f"Command still running after {call.wall_time:.1f}s. To block until it finishes, call write_stdin "
        "with next_wait_args (action wait; a wait deadline never kills the command). Do not poll in a loop."
    )


def _program(command: str) -> str:
    words = command.split()
    return words[0] if words else command


def error_result(tool_name: str, message: str) -> ExecError:
    """The error object for a call that could not be carried out."""
    return ExecError(error=ErrorDetail(tool_name=tool_name, message=message))


def encode(result: ExecResult | ExecError) -> str:
    """The JSON text the model sees (`json.dumps` spacing, non-ASCII kept readable)."""
    return json.dumps(msgspec.to_builtins(result), ensure_ascii=False)
