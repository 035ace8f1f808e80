"""`OUT/tasks/<id>/result.json`: the record whose presence (and terminal status) marks a task done.

The worker makes the record as the task ends and sends it back inside the task's `TaskOutcome`, with
the artifacts as bytes; the driver writes the artifacts, then the record.
"""

from __future__ import annotations

import hashlib

import msgspec

from vtcode.core.batch.job import EvalResult, TaskError, TaskLogs, TaskStatus
from vtcode.protocol.messages import Usage

RESULT_SCHEMA_VERSION = 1
NO_PATCH_SHA256 = hashlib.sha256(b"").hexdigest()


class TaskResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """How one task ended; written last and atomically, so it is never seen half-written."""

    schema_version: int = RESULT_SCHEMA_VERSION
    id: str
    instance_id: str
    status: TaskStatus
    exit_code: int | None = None
    started_at: float = 0.0
    finished_at: float = 0.0
    duration_s: float = 0.0
    usage: Usage = Usage()
    cost_usd: float | None = None
    requests: int = 0
    model: str = ""
    vtcode_version: str = ""
    backend: str = ""
    attempt: int = 1
    # The patch (`patch.diff`) by its hash and size; the default is an empty patch.
    patch_sha256: str = NO_PATCH_SHA256
    patch_bytes: int = 0
    eval: EvalResult | None = None
    error: TaskError | None = None
    # The workspace left on disk (failure, or --keep-workspaces); None once removed.
    workspace: str | None = None


class TaskOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one task produced: its result record and its artifacts as bytes, for `OUT/tasks/<id>/`."""

    result: TaskResult
    # What the agent was asked (kept beside the results: the trajectory starts with it).
    instruction: str = ""
    patch: bytes = b""
    logs: TaskLogs = TaskLogs()


def encode_result(result: TaskResult) -> bytes:
    """result.json's bytes (indented for people, one trailing newline)."""
    return msgspec.json.format(msgspec.json.encode(result), indent=2) + b"\n"


def decode_result(data: bytes) -> TaskResult | None:
    """The result in `data`; None when it is empty, truncated or not a result (a damaged file)."""
    if not data.strip():
        return None
    try:
        return msgspec.json.decode(data, type=TaskResult)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
