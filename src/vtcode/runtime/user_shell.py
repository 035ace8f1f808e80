"""`!cmd`: a command the user types runs in their shell, and the model reads it at its next turn.

The input `!cmd` (leading whitespace ignored) is not a prompt: its turn runs `cmd` through `exec_command`
on the user's authority (no approval, no tool hooks; outside the OS sandbox unless `[sandbox]
confine_user_commands`), with the same item events, live output, spool and checkpoints as the agent's
commands, then ends without a model request. The command and its bounded result are stored as a user
message (`kind="shell"`) the model reads with the next prompt. `!!text` and a lone `!` are ordinary text.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from vtcode.protocol.messages import Message, MessageMeta, ToolCall, Usage, UserMessage
from vtcode.runtime.hooks import TurnStart

if TYPE_CHECKING:
    from vtcode.runtime.turn import TurnOutcome, TurnRunner

PREFIX = "!"
EXEC_TOOL = "exec_command"
INTRO = "I ran this command myself:"
INTERRUPTED = "(I interrupted it before it finished)"


def user_command(text: str) -> str | None:
    """The command of a `!cmd` input; None for any other input (`!!text` and a lone `!` included)."""
    stripped = text.lstrip()
    if not stripped.startswith(PREFIX) or stripped.startswith(PREFIX * 2):
        return None
    command = stripped[len(PREFIX) :].strip()
    return command or None


async def run_user_command(runner: TurnRunner, command: str, turn: int, intent_id: str | None) -> TurnOutcome:
    """Run the turn of a `!cmd` input: the command, then its record in the history; no model request."""
    from vtcode.runtime.turn import TurnOutcome

    # The turn-start hooks still run: checkpoints record the turn (so `/rewind` can undo the command).
    opening: list[Message] = []
    for start_hook in runner.hooks.turn_start:
        opening.extend(await start_hook(TurnStart(turn=turn, text=f"{PREFIX}{command}")))
    if opening:
        runner.commit(opening)
    call = ToolCall(id=f"user_shell_{turn}", name=EXEC_TOOL, arguments=json.dumps({"cmd": command}))
    try:
        result = await runner.dispatcher.run_call(call, user=True)
    except asyncio.CancelledError:
        runner.commit([_record(runner, command, INTERRUPTED, turn, intent_id)])
        raise
    runner.commit([_record(runner, command, result_text(result.content), turn, intent_id)])
    return TurnOutcome("", Usage(), 0)


def _record(runner: TurnRunner, command: str, result: str, turn: int, intent_id: str | None) -> UserMessage:
    meta = MessageMeta(intent_id=intent_id, created_at=runner.clock(), turn=turn, kind="shell")
    return UserMessage(f"{INTRO}\n$ {command}\n{result}", meta=meta)


def result_text(content: str) -> str:
    """The model's view of a command result as a terminal shows it: output, then the exit code.

    The other fields the model would see (a still-running session's id and wait arguments, a spool
    path, a note) follow as JSON, so the model can follow the command up; an error result is kept as is.
    """
    try:
        fields: Any = json.loads(content)
    except ValueError:
        return content
    if not isinstance(fields, dict) or "output" not in fields:
        return content
    output = str(fields.pop("output"))
    lines = [output.rstrip("\n")] if output.strip() else []
    exit_code = fields.pop("exit_code", None)
    if exit_code is not None:
        lines.append(f"(exit code {exit_code})")
    if fields:
        lines.append(f"({json.dumps(fields, ensure_ascii=False)})")
    return "\n".join(lines)
