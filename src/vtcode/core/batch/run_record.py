"""`OUT/run.json`: what a batch folder was made from, so a resume cannot mix two different batches.

It pins the tasks file (by sha256) and the flags that change answers (provider, model, approval, turn
limit, config overrides, network, sandbox); resuming with another file or other flags is refused
unless `--force`. It also lists the task ids, so `batch status` and `batch preds` need only the folder.
"""

from __future__ import annotations

import msgspec

from vtcode.protocol.errors import UsageError

RUN_SCHEMA_VERSION = 1


class ModelFlags(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The run settings every task shares and a resume must keep."""

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    approval: str = "full-auto"
    max_turns: int | None = None
    profile: str | None = None
    sandbox: str | None = None
    network: bool = False
    config: tuple[str, ...] = ()


class RunRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The contents of run.json."""

    schema_version: int = RUN_SCHEMA_VERSION
    vtcode_version: str
    tasks_file: str
    tasks_sha256: str
    format: str = "vtcode"
    flags: ModelFlags
    task_ids: tuple[str, ...]
    created_at: float
    updated_at: float
    # When the latest run ended (None while it runs, or when its driver was killed).
    finished_at: float | None = None
    runs: int = 1
    backend: str = "local"
    workers: int = 1
    timeout_s: float = 0.0


def check_resume(previous: RunRecord, current: RunRecord, *, force: bool) -> None:
    """Refuse to resume a folder made from another tasks file or with other flags (unless forced)."""
    if force:
        return
    if previous.tasks_sha256 != current.tasks_sha256:
        raise UsageError(
            f"the output folder was made from another tasks file ({previous.tasks_file}, sha256 "
            f"{previous.tasks_sha256[:12]}), not {current.tasks_file} ({current.tasks_sha256[:12]})",
            hint="use a new -o folder, or --force to continue this one with the new file",
        )
    if previous.flags != current.flags:
        before = msgspec.structs.asdict(previous.flags)
        now = msgspec.structs.asdict(current.flags)
        changed = ", ".join(
            f"{key}: {before[key]!r} -> {now[key]!r}" for key in before if before[key] != now[key]
        )
        raise UsageError(
            f"the output folder was run with other settings ({changed})",
            hint="rerun with the same flags, use a new -o folder, or --force",
        )


def encode_run(record: RunRecord) -> bytes:
    """run.json's bytes."""
    return msgspec.json.format(msgspec.json.encode(record), indent=2) + b"\n"


def decode_run(data: bytes, source: str) -> RunRecord:
    """The record in run.json; UsageError when it is not one."""
    try:
        return msgspec.json.decode(data, type=RunRecord)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise UsageError(f"{source}: not a vtcode batch run record ({exc})") from None
