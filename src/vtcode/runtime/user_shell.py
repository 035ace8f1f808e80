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
WAIT_TOOL = "write_stdin"
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
    results: list[str] = []
    try:
        result = await runner.dispatcher.run_call(call, user=True)
        results.append(result.content)
        # Headless (`vtcode exec`) nobody is left to follow a long command: wait for its end there.
        while runner.dispatcher.policy.headless and (session := _still_running(result.content)):
            wait = json.dumps({"session_id": session, "action": "wait"})
            call = ToolCall(id=f"{call.id}_wait", name=WAIT_TOOL, arguments=wait)
            result = await runner.dispatcher.run_call(call, user=True)
            results.append(result.content)
    except asyncio.CancelledError:
        runner.commit([_record(runner, command, INTERRUPTED, turn, intent_id)])
        raise
    runner.commit([_record(runner, command, result_text(*results), turn, intent_id)])
    return TurnOutcome("", Usage(), 0)


def _still_running(content: str) -> str | None:
    """The session id of a command result that says the command still runs."""
    fields = _fields(content)
    if fields is None or fields.get("is_exited") is not False:
        return None
    session = fields.get("session_id")
    return session if isinstance(session, str) else None


def _fields(content: str) -> dict[str, Any] | None:
    try:
        fields: Any = json.loads(content)
    except ValueError:
        return None
    return fields if isinstance(fields, dict) and "output" in fields else None


def _record(runner: TurnRunner, command: str, result: str, turn: int, intent_id: str | None) -> UserMessage:
    meta = MessageMeta(intent_id=intent_id, created_at=runner.clock(), turn=turn, kind="shell")
    return UserMessage(f"{INTRO}\n$ {command}\n{result}", meta=meta)


def typed_command(message: UserMessage) -> str | None:
    """What the user typed (`!cmd`) for the history's record of a `!cmd`; None for any other message.

    A front end replaying a resumed session shows the line as it was typed, not the record the model
    reads. A command of several lines is shown by its first, as the record cannot tell where it ends.
    """
    if message.meta.kind != "shell" or not message.content.startswith(f"{INTRO}\n$ "):
        return None
    command = message.content[len(INTRO) + 3 :].split("\n", 1)[0]
    return f"{PREFIX}{command}"


def result_text(*contents: str) -> str:
    """The model's view of a command's results (its first call, then any waits) as a terminal shows it.

    The output, then the exit code; the other fields the model would see of the last result (a
    still-running session's id and wait arguments, a spool path, a note) follow as JSON, so the model can
    follow the command up. A result that is not a command's (an error) is kept as is.
    """
    parsed = [_fields(content) for content in contents]
    last = parsed[-1] if parsed else None
    if last is None:
        return contents[-1] if contents else ""
    output = "".join(str(fields.get("output", "")) for fields in parsed if fields is not None)
    rest = {key: value for key, value in last.items() if key not in ("output", "exit_code")}
    lines = [output.rstrip("\n")] if output.strip() else []
    if last.get("exit_code") is not None:
        lines.append(f"(exit code {last['exit_code']})")
    if rest:
        lines.append(f"({json.dumps(rest, ensure_ascii=False)})")
    return "\n".join(lines)
