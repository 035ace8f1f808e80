"""How a call of a program's own function tool is shown (SDK tools in-process and over ACP alike)."""

from __future__ import annotations

import json
from typing import Any

from vtcode.tools.base import CallDescription

_SHOWN_ARGUMENTS = 160


def describe_function_call(name: str, arguments: dict[str, Any]) -> CallDescription:
    """The call as one line: the tool name and its arguments (cut to a readable length)."""
    shown = json.dumps(arguments, ensure_ascii=False, sort_keys=True)
    if len(shown) > _SHOWN_ARGUMENTS:
        shown = shown[: _SHOWN_ARGUMENTS - 1] + "…"
    return CallDescription(display=f"{name} {shown}", subject=name)
