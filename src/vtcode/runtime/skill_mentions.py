"""`$name` in a prompt loads that skill, as Codex's explicit skill mention does: its instructions go
before the prompt (which stays as typed), exactly as `/name` would put them in, so the skill is used
whether or not the model would have picked it from the catalog (and also when it is hidden from the
model with `disable-model-invocation`).

Only names of skills a person may invoke count (`$HOME`, `$1` or a price are text); a skill already
loaded in the conversation is not added again. Imported only when a prompt holds a `$`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from vtcode.protocol.messages import Message, MessageMeta, UserMessage
from vtcode.runtime.hooks import TurnStart
from vtcode.runtime.skill_invocation import expand_invocation
from vtcode.runtime.skills import SessionSkills

_MENTION = re.compile(r"(?<![\w$\\])\$([a-z0-9][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*)*)")


def mentioned_skills(skills: SessionSkills, text: str) -> list[str]:
    """The skills `text` names with `$name`, each once, in order."""
    names: list[str] = []
    for raw in _MENTION.findall(text):
        name = raw.rstrip("-_")  # "use $deploy-" ends a sentence, not the name
        if name in names or name not in skills.found.skills or skills.lookup(name) is None:
            continue
        names.append(name)
    return names


async def skill_mentions(
    skills: SessionSkills, start: TurnStart, inform: Callable[[str], None]
) -> Sequence[Message]:
    """The instructions of each skill `start`'s prompt names with `$name`, as context messages."""
    if start.text.lstrip().startswith(("<skill_content", "!")):
        return []  # a `/name` already expanded, or the user's own shell line
    added: list[Message] = []
    for name in mentioned_skills(skills, start.text):
        if skills.is_loaded(name, ""):
            continue
        content = await expand_invocation(skills, f"/{name}")
        if content.startswith("<skill_content"):
            inform(f"skill loaded: {name} (${name})")
            added.append(UserMessage(content, meta=MessageMeta(kind="context", turn=start.turn)))
    return added
