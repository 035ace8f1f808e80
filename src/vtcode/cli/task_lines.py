"""How `vtcode exec` shows a finished `task` call on stderr: which subagent did what, and its outcome.

Without this a delegation read `• task explore`: neither the task's label (the `description` the model
writes for the user) nor what the child cost, did or changed.
"""

from __future__ import annotations

import json
from typing import Any

from vtcode.core.pricing import format_cost


def task_lines(arguments: str, status: str, result: str | None, details: dict[str, Any] | None) -> list[str]:
    """`• task explore: find the loader`, then the child's outcome (or why the call failed)."""
    try:
        values = json.loads(arguments or "{}")
    except ValueError:
        values = {}
    if not isinstance(values, dict):
        values = {}
    kind = str(values.get("subagent_type") or "?")
    label = " ".join(str(values.get("description") or "").split())
    head = f"• task {kind}: {label}" if label else f"• task {kind}"
    lines = [head + ("" if status == "completed" else f"  ({status})")]
    if details and details.get("agent_id"):
        lines.append("  " + _outcome(details))
        reason = (result or "").split("\n\n", 2)[1:2]
        if status != "completed" and reason and reason[0].strip():
            # Why it stopped (the paragraph after the header line).
            lines.append(f"  {reason[0].strip().splitlines()[0][:200]}")
    elif result:
        first = result.strip().splitlines()[0] if result.strip() else ""
        lines.append(f"  {first[:200]}")
    return lines


def _outcome(details: dict[str, Any]) -> str:
    tokens = int(details.get("input_tokens") or 0) + int(details.get("output_tokens") or 0)
    calls = int(details.get("tool_calls") or 0)
    cost = f", {format_cost(details['cost_usd'])}" if "cost_usd" in details else ""
    files = ", ".join(str(f) for f in details.get("files_changed") or ()) or "none"
    return (
        f"{details['agent_id']}: {details.get('status', '?')}; {tokens} tokens{cost}; "
        f"{calls} tool call{'' if calls == 1 else 's'}; files changed: {files}"
    )
