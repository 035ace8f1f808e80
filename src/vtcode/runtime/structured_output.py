"""A final answer constrained by a JSON Schema (`vtcode exec --output-schema FILE`).

The schema is stated in every user message of the run; an answer that is not JSON, or does not
validate, is answered with what is wrong and asked again (`REASKS` times) before the turn fails with
kind `invalid_output`. Validation uses `jsonschema` (locked already, as a dependency of `mcp`), imported
only by a run that asks for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from vtcode.protocol.errors import UsageError

REASKS = 2
"""How many times an invalid final answer is sent back before the turn fails."""

_FENCE = "```"


def schema_instruction(schema: Mapping[str, Any]) -> str:
    """The text added to each user message of a run with an output schema."""
    return (
        "<output_schema>\n"
        f"{json.dumps(schema, indent=2, sort_keys=True)}\n"
        "</output_schema>\n"
        "Your final answer must be only a JSON value that validates against the schema above: no prose "
        "and no code fence around it."
    )


def parse_answer(text: str) -> Any:
    """The JSON value of an answer (a single surrounding code fence is tolerated); ValueError if none."""
    body = text.strip()
    if body.startswith(_FENCE) and body.endswith(_FENCE) and len(body) > 2 * len(_FENCE):
        body = body[len(_FENCE) : -len(_FENCE)]
        # The fence's language tag (```json) ends its first line.
        first, _, rest = body.partition("\n")
        body = rest if first.strip().isalpha() or not first.strip() else body
    return json.loads(body)


def check_schema(schema: Any, source: str) -> Mapping[str, Any]:
    """`schema` if it is a usable JSON Schema object; UsageError naming `source` otherwise."""
    from jsonschema import SchemaError  # type: ignore[import-untyped]
    from jsonschema.validators import validator_for  # type: ignore[import-untyped]

    if not isinstance(schema, dict):
        raise UsageError(f"{source}: expected a JSON Schema object, got {type(schema).__name__}")
    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        raise UsageError(f"{source}: not a valid JSON Schema: {exc.message}") from None
    return schema


def answer_problem(text: str, schema: Mapping[str, Any]) -> str | None:
    """What is wrong with `text` as an answer for `schema`, or None when it validates."""
    from jsonschema.validators import validator_for

    try:
        value = parse_answer(text)
    except ValueError as exc:
        return f"the answer is not JSON ({exc})"
    errors = sorted(validator_for(schema)(schema).iter_errors(value), key=lambda e: list(e.path))
    if not errors:
        return None
    first = errors[0]
    where = "/".join(str(part) for part in first.path) or "(the whole value)"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"at {where}: {first.message}{more}"


def reask_text(problem: str) -> str:
    """The message that sends an invalid answer back to the model."""
    return (
        f"Your final answer does not validate against the output schema: {problem}. Reply again with "
        "only the corrected JSON value."
    )
