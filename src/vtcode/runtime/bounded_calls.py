"""The history copy of an assistant message: tool calls with huge arguments kept as a bounded preview."""

from __future__ import annotations

from pathlib import Path

import msgspec

from vtcode.core.call_arguments import ARGUMENT_LIMIT, bounded_arguments
from vtcode.protocol.messages import AssistantMessage
from vtcode.tools.argument_spool import spool_arguments


def bounded_message(workspace: Path, message: AssistantMessage) -> AssistantMessage:
    """`message` as the history keeps it; the tools still run with the calls of the original."""
    if all(len(call.arguments) <= ARGUMENT_LIMIT for call in message.tool_calls):
        return message
    calls = []
    for call in message.tool_calls:
        if len(call.arguments) <= ARGUMENT_LIMIT:
            calls.append(call)
            continue
        reference = spool_arguments(workspace, call.id, call.arguments)
        kept = bounded_arguments(call.arguments, reference)
        calls.append(call if kept is None else msgspec.structs.replace(call, arguments=kept))
    return msgspec.structs.replace(message, tool_calls=tuple(calls))
