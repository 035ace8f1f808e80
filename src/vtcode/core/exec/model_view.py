"""What the model sees of a command result: only the fields that say something in this case.

The full `ExecResult` stays in the event stream and `events.jsonl` for front ends; every later request of
a session carries the model's copy again, so each field left out here is saved on every round trip.
Field names are SPEC section 8's. A finished command is `{"exit_code": N, "output": ...}` (an exit code
means it exited); a running one adds `session_id`, `is_exited: false` and `next_wait_args`; spool fields
appear only when `spool_fields` handed them out (a cut or big preview, a pending or failed spool), so the
seed's rules hold: a path only for a safe spool, `spool_complete` next to every path. Status comes
first and `output` last, so the model reads what happened before the preview itself.

Every field of `ExecResult` is sorted into `MODEL_FIELDS` (the model may see it, when it says something)
or `FRONT_END_FIELDS` (what else carries it for the model, or why the model does not need it); a contract
test checks that the two cover the struct, so a new field cannot be dropped from the model's copy by
accident (the sandbox note once was: the model never heard that the sandbox blocked a write).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from vtcode.core.exec.result import ExecError, ExecResult

# A call shorter than this says nothing with its duration; a longer one (a build, a wait that ran to its
# deadline) tells the model how long the command takes.
LONG_WALL_TIME_SECONDS = 5.0

# Fields the model reads whenever they are set (or, for the status fields, when they say something).
MODEL_FIELDS: frozenset[str] = frozenset(
    {
        "exit_code",
        "signal",
        "session_id",
        "is_exited",
        "output_drained",
        "wall_time",
        "truncated",
        "spool_path",
        "spool_complete",
        "spool_pending",
        "spool_error",
        "spool_truncated_bytes",
        "spool_note",
        "critical_note",
        "sandbox_note",
        "next_action",
        "next_wait_args",
        "output",
    }
)

# Fields kept for front ends and `events.jsonl` only, with what tells the model instead.
FRONT_END_FIELDS: dict[str, str] = {
    "success": "exit_code says it",
    "command": "the model wrote the command itself",
    "backend": "the model chose tty itself",
    "working_directory": "the model chose workdir itself",
    "rows": "terminal size of a tty session, fixed by config",
    "cols": "terminal size of a tty session, fixed by config",
    "waited_seconds": "wall_time says how long a long call took",
    "wait_deadline_seconds": "the model set the deadline itself; is_exited says it passed",
    "process_id": "the same value as session_id",
    "total_output_bytes": "the preview's omission marker names what was cut",
    "output_truncated": "sticky for the session; truncated and spool_error say it for this call",
    "omitted_bytes": "the preview's omission marker names the omitted bytes",
    "omitted_lines": "the preview's omission marker names the omitted lines",
    "spool_pending_reason": "spool_note says what to do",
    "spooled_bytes": "the file at spool_path holds them",
    "next_action_hint": "the exec_command and write_stdin descriptions say how to wait",
    "next_continue_args": "next_wait_args is the call to make; polling is discouraged",
}


def model_fields(result: ExecResult) -> dict[str, Any]:
    """The fields of `result` that carry information for the model, in the order it should read them."""
    out: dict[str, Any] = {}
    if result.exit_code is not None:
        out["exit_code"] = result.exit_code
    if result.signal is not None:
        out["signal"] = result.signal
    if not result.is_exited:
        out["session_id"] = result.session_id
        out["is_exited"] = False
    elif not result.output_drained and not result.spool_pending:
        out["output_drained"] = False
    if result.wall_time >= LONG_WALL_TIME_SECONDS:
        out["wall_time"] = result.wall_time
    if result.truncated:
        out["truncated"] = True
    for name in ("spool_path", "spool_complete", "spool_pending", "spool_error", "spool_truncated_bytes"):
        value = getattr(result, name)
        if value is not None:
            out[name] = value
    if result.spool_pending:
        # The one spool state the model must act on; the note says how.
        out["spool_note"] = result.spool_note
    if result.critical_note is not None:
        out["critical_note"] = result.critical_note
    if result.next_action is not None:
        out["next_action"] = result.next_action
    if result.sandbox_note is not None:
        # The model must hear that the OS sandbox blocked a write, or it retries or works around it.
        out["sandbox_note"] = result.sandbox_note
    if result.next_wait_args is not None:
        out["next_wait_args"] = msgspec.to_builtins(result.next_wait_args)
    out["output"] = result.output
    return out


def encode_for_model(result: ExecResult | ExecError) -> str:
    """The compact JSON text the model sees for one `exec_command` or `write_stdin` call."""
    if isinstance(result, ExecError):
        body: dict[str, Any] = {"error": result.error.message}
    else:
        body = model_fields(result)
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))
