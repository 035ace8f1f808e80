"""The deterministic local summary: what compaction writes when the model cannot summarize (SPEC 6.4).

Extractive only, so it never invents: the user's requests and corrections, the files the calls named,
the tools run, the last things the assistant said, and the failures. Same headings as a model summary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from vtcode.core.compaction.summary import SECTIONS
from vtcode.core.compaction.truncate import shorten
from vtcode.core.tokens import TextCounter
from vtcode.core.touched_paths import touched_paths
from vtcode.protocol.messages import AssistantMessage, Message, SystemMessage, ToolResultMessage, UserMessage

FALLBACK_NOTE = "(Deterministic summary written by vtcode: the model summary was unavailable.)"
_GOAL_TOKENS = 400
_LINE_TOKENS = 120
_RECENT_ASSISTANT = 3
_FAILURES = 5


def fallback_summary(prefix: Sequence[Message], count: TextCounter, workspace: str = "/") -> str:
    """A summary of `prefix` in the fixed structure, built only from what the messages say."""
    users = [m for m in prefix if isinstance(m, UserMessage) and m.content.strip()]
    assistants = [m for m in prefix if isinstance(m, AssistantMessage) and m.content.strip()]
    results = [m for m in prefix if isinstance(m, ToolResultMessage)]
    earlier = [m for m in prefix if isinstance(m, SystemMessage) and m.content.strip()]
    calls = Counter(call.name for m in prefix if isinstance(m, AssistantMessage) for call in m.tool_calls)

    goal = [shorten(users[0].content.strip(), _GOAL_TOKENS, count)] if users else []
    goal += [f"Earlier summary: {shorten(m.content.strip(), _GOAL_TOKENS, count)}" for m in earlier[-1:]]
    corrections = [f'- "{shorten(m.content.strip(), _LINE_TOKENS, count)}"' for m in users[1:]]
    files = [f"- {path}" for path in reversed(touched_paths(prefix, workspace))]
    work = [f"- {name}: {n} call{'s' if n != 1 else ''}" for name, n in sorted(calls.items())]
    work += [
        f"- assistant: {shorten(m.content.strip(), _LINE_TOKENS, count)}"
        for m in assistants[-_RECENT_ASSISTANT:]
    ]
    failures = [
        f"- {m.name}: {shorten(_first_line(m.content), _LINE_TOKENS, count)}" for m in results if m.is_error
    ][-_FAILURES:]
    last_user = max((i for i, m in enumerate(prefix) if isinstance(m, UserMessage)), default=-1)
    last_user_answered = any(isinstance(m, AssistantMessage) for m in prefix[last_user + 1 :])
    open_items = (
        [f'- unanswered: "{shorten(users[-1].content.strip(), _LINE_TOKENS, count)}"']
        if users and not last_user_answered
        else []
    )
    bodies = {
        "Goal": goal,
        "Constraints and user corrections": corrections,
        "Decisions": [],
        "Files touched": files,
        "Work done": work,
        "Open items": open_items,
        "Failed approaches": failures,
    }
    sections = [f"## {name}\n" + ("\n".join(bodies[name]) or "none") for name in SECTIONS]
    return FALLBACK_NOTE + "\n\n" + "\n\n".join(sections)


def _first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0] if stripped else "(no output)"
