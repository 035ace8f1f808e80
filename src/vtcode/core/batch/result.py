"""`OUT/tasks/<id>/result.json`: the record whose presence (and terminal status) marks a task done."""

from __future__ import annotations

import hashlib

import msgspec

from vtcode.core.batch.job import EvalResult, TaskError, TaskOutcome, TaskStatus
from vtcode.protocol.messages import Usage

RESULT_SCHEMA_VERSION = 1


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
    patch_sha256: str = ""
    patch_bytes: int = 0
    eval: EvalResult | None = None
    error: TaskError | None = None
    workspace: str | None = None


def result_of(outcome: TaskOutcome, *, vtcode_version: str, backend: str) -> TaskResult:
    """The result record of an outcome (the patch by its hash and size; artifacts are files)."""
    spent = outcome.spend
    return TaskResult(
        id=outcome.id,
        instance_id=outcome.instance_id,
        status=outcome.status,
        exit_code=outcome.exit_code,
        started_at=outcome.started_at,
        finished_at=outcome.finished_at,
        duration_s=outcome.duration_s,
        usage=spent.usage,
        cost_usd=spent.cost_usd,
        requests=spent.requests,
        model=spent.model,
        vtcode_version=vtcode_version,
        backend=backend,
        attempt=outcome.attempt,
        patch_sha256=hashlib.sha256(outcome.patch).hexdigest(),
        patch_bytes=len(outcome.patch),
        eval=outcome.eval,
        error=outcome.error,
        workspace=outcome.workspace,
    )


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
