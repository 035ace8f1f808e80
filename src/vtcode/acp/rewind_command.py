"""`/rewind` and `/redo` typed as an ACP prompt: answered from the session's rewinds, not the model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vtcode.protocol.errors import VtcodeError

if TYPE_CHECKING:
    from vtcode.runtime.session import Session


def is_rewind_command(text: str) -> bool:
    """Whether a prompt is `/rewind ...`, one of its aliases, or `/redo`."""
    word = text.strip().split(maxsplit=1)[0].lower() if text.strip() else ""
    return word in ("/rewind", "/undo", "/checkpoint", "/redo")


async def answer(session: Session, text: str) -> str:
    """Run the command; the text to show the user (errors included: nothing raises)."""
    # Loaded at the first command, not at every `vtcode acp` start-up (as `exec` loads them).
    from vtcode.core.rewind_command import USAGE, parse_rewind
    from vtcode.runtime.session_rewind import preview_text, result_text

    word, _, argument = text.strip().partition(" ")
    rewinds = session.rewinds
    try:
        if word.lower() == "/redo":
            return result_text(await rewinds.redo(force="force" in argument.lower().split()))
        command = parse_rewind(argument)
        if command.turn is None:
            lines = [
                f"turn {t.turn}: {' '.join(t.prompt.split())[:70]} ({len(t.files)} file(s))"
                for t in rewinds.turns()
            ]
            if not lines:
                return "no checkpoints yet: nothing to rewind"
            lines.append(f"usage: {USAGE}")
            if not rewinds.covers_commands:
                lines.append("note: without git, changes made by commands are not covered")
            return "\n".join(lines)
        if command.action == "preview":
            result = await rewinds.preview(command.turn, command.scope)
            body = preview_text(
                result.planned, code=command.scope != "conversation", covers_commands=rewinds.covers_commands
            )
            return f"{body}\nsend `/rewind {command.turn} {command.scope} yes` to apply".strip()
        result = await rewinds.apply(command.turn, command.scope, force=command.force)
    except (ValueError, VtcodeError) as exc:
        return exc.user_text() if isinstance(exc, VtcodeError) else str(exc)
    text = result_text(result)
    if result.fork_id is not None and result.turn is not None:
        text += (
            f"\nload session {result.fork_id} to go on from before that turn (this one stays as it was); "
            f"the rewound prompt was:\n{result.turn.prompt}"
        )
    return text
