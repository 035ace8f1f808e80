"""The one result object `vtcode exec --output-format json` prints at the end (SPEC section 2)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from vtcode.protocol.events import FailureKind
from vtcode.protocol.messages import Usage
from vtcode.protocol.usage import UsageRow

RESULT_SCHEMA_VERSION = 1


class ExecResult(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True, tag_field="type", tag="result"
):
    """How a run ended, for scripts: the answer, the session to resume, why it failed.

    `status` is completed, failed or interrupted; `kind` (None on success) is one of
    `protocol.errors.FAILURE_KINDS`; `result` is the last agent message (the raw text also when it did
    not validate against `--output-schema`); `structured_output` its parsed JSON when a schema was given.
    `total_cost_usd` is the run's cost at list prices, every source included (null: a model's price is
    unknown); `model_usage` adds the run's calls up per model (as Claude's `modelUsage`).
    """

    schema_version: int = RESULT_SCHEMA_VERSION
    session_id: str | None = None
    status: Literal["completed", "failed", "interrupted"] = "completed"
    is_error: bool = False
    kind: FailureKind | None = None
    exit_code: int = 0
    message: str | None = None
    result: str | None = None
    num_turns: int = 0
    usage: Usage = Usage()
    total_cost_usd: float | None = None
    model_usage: dict[str, UsageRow] = {}
    structured_output: Any = None


def encode_result(result: ExecResult) -> bytes:
    """The result as one JSON line (without the newline)."""
    return msgspec.json.encode(result)
