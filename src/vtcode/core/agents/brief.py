"""Whether a `task` brief can stand on its own (pure).

A new subagent sees nothing but its brief, so "continue the previous task" hands it nothing to continue
(reference extensibility.md 3.3: the stateless-children complaint). Such a brief is refused with the
two ways out: continue that child by its id, or write a complete brief.
"""

from __future__ import annotations

import re

# Short briefs that only point back at earlier work. A long brief that starts so carries its own facts.
_POINTS_BACK = re.compile(
    r"^\W*(please\s+)?(continue|keep\s+going|go\s+on|carry\s+on|resume|finish|proceed|pick\s+up)\b"
    r"|\b(the|your|that)\s+(previous|last|earlier|same)\s+(task|work|brief|job|step)\b",
    re.IGNORECASE,
)
# Under this many characters a brief that points back has no room for the facts it would need.
SHORT_BRIEF = 200


def brief_problem(prompt: str, *, resuming: bool) -> str | None:
    """Why `prompt` cannot start a new subagent (None when it can, or when a child is continued)."""
    text = prompt.strip()
    if not text:
        return "`prompt` must be the subagent's complete brief"
    if resuming or len(text) >= SHORT_BRIEF or not _POINTS_BACK.search(text):
        return None
    return (
        f"refused: a new subagent cannot see this conversation, so {text!r} gives it nothing to go on. "
        "To continue a subagent, call task again with `resume` set to its agent id (the `agent-...` of "
        "its result); otherwise write a complete brief: the goal, the relevant files and facts, the "
        "constraints and what to report back"
    )
