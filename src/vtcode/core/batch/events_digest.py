"""What a task's `vtcode exec --json` stream says about it: tokens, cost, model, why it failed.

Read leniently: a stream cut short by a timeout or a kill still yields what it had, and lines that are
not events (a crash's last words) are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import msgspec

from vtcode.core.batch.job import Spend
from vtcode.protocol.messages import Usage

_RATE_LIMITED = re.compile(rb"HTTP 429\b.*?retrying in ([0-9]+(?:\.[0-9]+)?)s")


class _Row(msgspec.Struct):
    model: str = ""
    provider: str = ""


class _Line(msgspec.Struct):
    type: str = ""
    usage: Usage | None = None
    cost_usd: float | None = None
    requests: int = 0
    rows: list[_Row] = []
    kind: str = ""
    message: str = ""
    exit_code: int | None = None
    status: str = ""


_DECODER = msgspec.json.Decoder(_Line)


@dataclass(frozen=True)
class EventsDigest:
    """The run's usage (from its `usage` event), the model used, and its last failure if any."""

    spend: Spend = field(default_factory=Spend)
    failure_kind: str = ""
    failure_message: str = ""
    thread_status: str = ""


def digest_events(data: bytes) -> EventsDigest:
    """The digest of a `--json` event stream (possibly incomplete)."""
    usage = Usage()
    cost: float | None = None
    requests = 0
    model = ""
    kind = message = status = ""
    for raw in data.splitlines():
        if not raw.startswith(b"{") or not (
            b'"usage"' in raw or b'"turn.failed"' in raw or b'"thread.completed"' in raw
        ):
            continue
        try:
            line = _DECODER.decode(raw)
        except (msgspec.ValidationError, msgspec.DecodeError):
            continue
        if line.type == "usage":
            usage = line.usage or Usage()
            cost = line.cost_usd
            requests = line.requests
            models = [row.model for row in line.rows if row.model]
            model = models[0] if models else model
        elif line.type == "turn.failed":
            kind, message = line.kind, line.message
        elif line.type == "thread.completed":
            status = line.status
            if line.usage is not None and requests == 0:
                usage = line.usage
    return EventsDigest(
        spend=Spend(usage=usage, cost_usd=cost, requests=requests, model=model),
        failure_kind=kind,
        failure_message=message,
        thread_status=status,
    )


def rate_limit_delay(line: bytes) -> float | None:
    """Seconds a provider asked to wait, from a `notice` line announcing a retry after HTTP 429."""
    if b'"notice"' not in line:
        return None
    found = _RATE_LIMITED.search(line)
    return float(found.group(1)) if found else None
