"""The published JSON Schema of `vtcode exec` output: every `jsonl` event and the `json` result object."""

from __future__ import annotations

from typing import Any

import msgspec

from vtcode.protocol.events import Event
from vtcode.protocol.exec_result import ExecResult

SCHEMA_PATH = "docs/exec-events.schema.json"
"""Where the repository keeps it (written by scripts/gen_event_schema.py, checked by a test)."""


def exec_output_schema() -> dict[str, Any]:
    """The schema, generated from the event and result types (msgspec), with a title and an id."""
    schema = msgspec.json.schema(Event | ExecResult)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "vtcode exec output: one event per line (jsonl), or the result object (json)",
        **schema,
    }


def schema_text() -> str:
    """The schema as the file holds it: sorted keys, two-space indent, a final newline."""
    import json

    return json.dumps(exec_output_schema(), indent=2, sort_keys=True) + "\n"
