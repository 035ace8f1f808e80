"""How a tool call is shown as an event item: a command card, a file change, or a plain tool call.

The item is chosen by the tool's kind; front ends render the item, never the tool's own result format.
"""

from __future__ import annotations

import msgspec

from vtcode.protocol.events import (
    CommandExecutionItem,
    FileChange,
    FileChangeItem,
    Item,
    ItemStatus,
    ToolCallItem,
)
from vtcode.protocol.messages import ToolCall
from vtcode.tools.base import CallDescription, Tool, ToolOutcome

# Characters of each file's diff an approval request carries (the event is stored with the session).
PREVIEW_DIFF_CHARS = 64 * 1024


def bounded_change(change: FileChange) -> FileChange:
    """The change with its diff cut to what a preview shows (`PREVIEW_DIFF_CHARS`)."""
    diff = change.diff
    if diff is None or len(diff) <= PREVIEW_DIFF_CHARS:
        return change
    cut = diff[:PREVIEW_DIFF_CHARS].rsplit("\n", 1)[0]
    return msgspec.structs.replace(change, diff=cut + "\n… (the rest of the diff is not shown)")


def call_item(
    tool: Tool,
    call: ToolCall,
    item_id: str,
    described: CallDescription,
    *,
    status: ItemStatus,
    text: str = "",
    outcome: ToolOutcome | None = None,
) -> Item:
    """The event item that shows this call, chosen by the tool's kind.

    `text` is the result (or the reason it was not run); front ends get a command's own output as
    `aggregated_output` and the tool's whole result apart.
    """
    match tool.kind:
        case "command" | "session_input":
            shown = outcome.display_output if outcome and outcome.display_output is not None else text
            session = outcome.extra.get("session_id") if outcome is not None else None
            return CommandExecutionItem(
                id=item_id,
                command=described.display,
                status=status,
                aggregated_output=shown,
                exit_code=outcome.exit_code if outcome else None,
                action=described.action or None,
                session_id=session if isinstance(session, str) else None,
                result=outcome.content if outcome is not None else None,
            )
        case "edit":
            changes = outcome.changes if outcome is not None else ()
            failed = status in ("failed", "declined")
            return FileChangeItem(
                id=item_id,
                changes=changes,
                status=status,
                message=text if failed and text else None,
                tool=call.name,
                paths=described.paths,
            )
        case "read" | "external":
            return ToolCallItem(
                id=item_id,
                name=call.name,
                arguments=call.arguments,
                status=status,
                result=text or None,
                details=dict(outcome.extra) if outcome is not None and outcome.extra else None,
            )
