"""The input `vtcode hooks test` sends: a sample of the event's input, with what the user gave over it.

A user tries a guard the way it will be called (`--tool Bash --input '{"tool_input": {"command":
"rm -rf build"}}'`): Claude Code tool names are taken for the vtcode tool they stand for, and a tool
input is given both the tool's own keys and the ones Claude Code hooks read, as a real call has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vtcode.core.hooks.matching import TOOL_ALIASES, tool_names
from vtcode.core.hooks.model import TOOL_EVENTS, HookEvent
from vtcode.runtime.tool_hooks import COMMAND_KEYS

_SAMPLES: dict[HookEvent, dict[str, Any]] = {
    "UserPromptSubmit": {"prompt": "test prompt"},
    "SessionStart": {"source": "startup"},
    "SessionEnd": {"reason": "other"},
    "Stop": {"stop_hook_active": False, "last_assistant_message": "done"},
    "SubagentStop": {"stop_hook_active": False, "last_assistant_message": "done"},
    "PreCompact": {"trigger": "manual"},
    "PostCompact": {"trigger": "manual", "compact_summary": ""},
    "Notification": {"message": "test notification", "title": "vtcode", "notification_type": "test"},
}


def vtcode_tool(name: str) -> str:
    """The vtcode tool a name means: itself, or the first vtcode tool a Claude Code or Gemini CLI name
    stands for."""
    if name in TOOL_ALIASES:
        return name
    return next((tool for tool in TOOL_ALIASES if name in tool_names(tool)), name)


def sample_input(event: HookEvent, tool: str | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """The sample input of `event` (on `tool`) with the fields in `given` put over it."""
    payload: dict[str, Any] = dict(_SAMPLES.get(event, {}))
    if tool is not None and event in TOOL_EVENTS:
        payload |= {
            "tool_name": tool,
            "tool_name_aliases": list(TOOL_ALIASES.get(tool, ())),
            "tool_input": {},
            "tool_use_id": "hooks-test",
        }
    payload |= given
    tool_input = payload.get("tool_input")
    key = COMMAND_KEYS.get(tool or "")
    if key is not None and isinstance(tool_input, dict):
        # Both spellings, as a real call has them: `cmd` (ours) and `command` (Claude Code's).
        text = tool_input.get("command", tool_input.get(key))
        if isinstance(text, str):
            payload["tool_input"] = {**tool_input, key: text, "command": text}
    return payload
