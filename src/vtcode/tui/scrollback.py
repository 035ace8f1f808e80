"""What the TUI leaves in the terminal's scrollback when it quits: the conversation as plain text.

The TUI draws on the alternate screen, which the terminal throws away on exit; without this a user who
quits finds nothing of the session above their prompt (Claude Code and Codex leave it there). The text
is the user's prompts, the agent's answers and one line per tool call; vtcode's own items (the
environment context, summaries) are left out. A long session prints only its most recent lines, with
a pointer to `vtcode sessions show` for the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from vtcode.core.call_summary import argument_summary
from vtcode.protocol.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from vtcode.tui.safe import safe_text

# Enough for the last hours of a normal session; a terminal keeps a few thousand lines anyway.
MAX_LINES = 2_000


def conversation_text(messages: Sequence[Message], session_id: str, *, max_lines: int = MAX_LINES) -> str:
    """The conversation as it should stay in the scrollback ('' when there is none)."""
    lines: list[str] = []
    # Calls that never ran (denied, blocked, interrupted while asked about) must not read as if they did.
    not_run = {
        m.call_id
        for m in messages
        if isinstance(m, ToolResultMessage) and m.is_error and m.content.startswith("not run")
    }
    for message in messages:
        match message:
            case UserMessage(content=content, meta=meta) if meta.kind is None:
                lines.append("")
                lines.extend(
                    f"› {line}" if i == 0 else f"  {line}" for i, line in enumerate(content.splitlines())
                )
            case AssistantMessage(content=content, tool_calls=calls):
                lines.extend(
                    _call_line(call) + ("  (not run)" if call.id in not_run else "") for call in calls
                )
                if content.strip():
                    lines.append("")
                    lines.extend(content.splitlines())
            case _:
                pass
    if not any(line.startswith("› ") for line in lines):
        return ""
    if len(lines) > max_lines:
        hidden = len(lines) - max_lines
        lines = [f"({hidden:,} earlier lines: vtcode sessions show {session_id})", *lines[hidden:]]
    # Model and tool text may hold escape sequences: never replay them into the user's terminal.
    return "\n".join(safe_text(line) for line in lines).strip("\n") + "\n"


def _call_line(call: ToolCall) -> str:
    """`  • exec_command cargo test`: the tool and what it names (paths, patterns, or the command)."""
    shown = argument_summary(call.arguments, width=80)
    if not shown:
        try:
            values = json.loads(call.arguments or "{}")
        except ValueError:
            values = None
        command = values.get("cmd") if isinstance(values, dict) else None
        if isinstance(command, str):
            shown = " ".join(command.split())[:80]
    return f"  • {call.name} {shown}".rstrip()
