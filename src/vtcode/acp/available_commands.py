"""The editor's `/` menu (ACP `available_commands_update`): what a prompt starting with `/` can run.

vtcode's own commands an ACP prompt answers (`/init`, `/rewind`, `/redo`), then the session's skills a
person may invoke and its custom commands, each with its description and argument hint. Sent once a
session is open or loaded; the definitions are the ones `vtcode exec "/name"` would expand.
"""

from __future__ import annotations

from acp.schema import AvailableCommand, AvailableCommandInput, UnstructuredCommandInput

from vtcode.core.prompt_commands import INIT_DESCRIPTION
from vtcode.runtime.session import Session

# (name, description, argument hint): what `agent.prompt` and the runtime answer without a definition file.
# The rewind hint is its own short text, not `core.rewind_command.USAGE`: that module loads with the first
# `/rewind`, not at every editor session's start.
_OWN: tuple[tuple[str, str, str | None], ...] = (
    ("init", INIT_DESCRIPTION, "optional focus"),
    ("rewind", "List the turns, or undo them: code and/or conversation", "TURN code|conversation|both"),
    ("redo", "Put back the files the last /rewind changed", None),
)


async def available_commands(session: Session) -> list[AvailableCommand]:
    """vtcode's commands, then the session's invocable skills and custom commands (read off the loop)."""
    commands = [_command(name, description, hint) for name, description, hint in _OWN]
    skills = session.skills
    if skills is None:
        return commands
    await skills.read_commands()
    own = {c.name for c in commands}
    for definition in skills.discovery.everything():
        if definition.user_invocable and definition.name not in own:
            commands.append(_command(definition.name, definition.description, definition.argument_hint))
    return commands


def _command(name: str, description: str, hint: str | None) -> AvailableCommand:
    given = AvailableCommandInput(root=UnstructuredCommandInput(hint=hint)) if hint else None
    return AvailableCommand(name=name, description=description, input=given)
