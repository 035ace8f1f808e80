"""The deterministic local summary: what compaction writes when the model cannot summarize (SPEC 6.4).

Extractive only, so it never invents: the user's first request as the goal, their corrections, the files
the calls changed (and, on one capped line, the files they only read), the tools run, the last things
the assistant said, and the failures. Same headings as a model summary.

Summaries never nest: a previous summary in the prefix is read, not quoted. Its goal, decisions, changed
files, call counts and failures carry over into the fresh summary, which replaces it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from vtcode.core.compaction.retention import ENVIRONMENT_CONTEXT_TAG, user_authored
from vtcode.core.compaction.summary import SECTIONS, previous_summary, transcript_messages
from vtcode.core.compaction.truncate import shorten
from vtcode.core.tokens import TextCounter
from vtcode.core.touched_paths import COMMAND_TOOLS, WRITING_TOOLS, changed_and_read, touched_paths
from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage, UserMessage

FALLBACK_NOTE = "(Deterministic summary written by vtcode: the model summary was unavailable.)"
# The reads line names this many of the most recent files only read, then counts the others.
READ_LIST_LIMIT = 20
READ_LINE_PREFIX = "Files read (not changed): "
_GOAL_TOKENS = 400
_LINE_TOKENS = 120
_RECENT_ASSISTANT = 3
_FAILURES = 5
_CALLS_LINE = re.compile(r"^- ([\w.-]+): (\d+) calls?$")
_MORE = re.compile(r"^(.*?)(?:,? and (\d+) more)?$")


def fallback_summary(prefix: Sequence[Message], count: TextCounter, workspace: str = "/") -> str:
    """A summary of `prefix` in the fixed structure, built only from what the messages say."""
    earlier = sections(previous_summary(prefix) or "")
    fresh = transcript_messages(prefix)
    users = user_authored(prefix)
    assistants = [m for m in fresh if isinstance(m, AssistantMessage) and m.content.strip()]
    results = [m for m in fresh if isinstance(m, ToolResultMessage)]
    calls = _earlier_calls(earlier.get("Work done", []))
    calls.update(call.name for m in fresh if isinstance(m, AssistantMessage) for call in m.tool_calls)

    goal = earlier.get("Goal") or ([shorten(users[0].content.strip(), _GOAL_TOKENS, count)] if users else [])
    corrections = [f'- "{shorten(m.content.strip(), _LINE_TOKENS, count)}"' for m in users[1:]]
    work = [f"- {name}: {n} call{'s' if n != 1 else ''}" for name, n in sorted(calls.items())]
    work += [
        f"- assistant: {shorten(m.content.strip(), _LINE_TOKENS, count)}"
        for m in assistants[-_RECENT_ASSISTANT:]
    ]
    failures = [
        f"- {m.name}: {shorten(_first_line(m.content), _LINE_TOKENS, count)}" for m in results if m.is_error
    ]
    failures = [*_bullets(earlier.get("Failed approaches", [])), *failures][-_FAILURES:]
    last_user = max((i for i, m in enumerate(fresh) if _is_request(m)), default=-1)
    last_user_answered = any(isinstance(m, AssistantMessage) for m in fresh[last_user + 1 :])
    open_items = (
        [f'- unanswered: "{shorten(users[-1].content.strip(), _LINE_TOKENS, count)}"']
        if users and last_user >= 0 and not last_user_answered
        else []
    )
    bodies = {
        "Goal": goal,
        "Constraints and user corrections": corrections,
        "Decisions": _bullets(earlier.get("Decisions", [])),
        "Files touched": _files(earlier.get("Files touched", []), fresh, prefix, workspace),
        "Work done": work,
        "Open items": open_items,
        "Failed approaches": failures,
    }
    rendered = [f"## {name}\n" + ("\n".join(bodies[name]) or "none") for name in SECTIONS]
    return FALLBACK_NOTE + "\n\n" + "\n\n".join(rendered)


def sections(summary: str) -> dict[str, list[str]]:
    """The non-empty lines under each heading of the fixed structure (a section saying 'none' is empty)."""
    names = {name.lower(): name for name in SECTIONS}
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in summary.splitlines():
        if line.startswith("## "):
            name = names.get(line[3:].strip().lower())
            current = found.setdefault(name, []) if name is not None else None
        elif current is not None and line.strip() and line.strip().lower() != "none":
            current.append(line.rstrip())
    return found


def _files(
    earlier: Sequence[str], fresh: Sequence[Message], prefix: Sequence[Message], workspace: str
) -> list[str]:
    """Changed files as bullets (earlier ones first), then one capped line of files only read.

    The count of the others comes from every path ever recorded, still on the prefix's messages (a
    summary message carries those of the messages it replaced), less the changed ones, the command
    folders and those named; the target of a failed write an earlier summary replaced counts as read.
    """
    old_changed = [line[2:] for line in earlier if line.startswith("- ")]
    changed, read = changed_and_read(fresh, workspace)
    all_changed = list(dict.fromkeys([p for p in old_changed if p not in changed] + changed))
    merged: dict[str, None] = dict.fromkeys(p for p in _read_line(earlier) if p not in read)
    merged.update(dict.fromkeys(read))
    reads = [path for path in merged if path not in all_changed]
    shown = reads[-READ_LIST_LIMIT:]
    recorded = set(touched_paths(prefix, workspace)) - set(all_changed) - _command_folders(fresh, workspace)
    more = len(recorded - set(shown))
    lines = [f"- {path}" for path in all_changed]
    if shown:
        lines.append(READ_LINE_PREFIX + ", ".join(reversed(shown)) + (f", and {more} more" if more else ""))
    return lines


def _read_line(lines: Sequence[str]) -> list[str]:
    """The files an earlier reads line names, oldest first."""
    for line in lines:
        if line.startswith(READ_LINE_PREFIX):
            match = _MORE.match(line[len(READ_LINE_PREFIX) :])
            names = match.group(1).split(", ") if match is not None else []
            return list(reversed([name for name in names if name]))
    return []


def _command_folders(messages: Sequence[Message], workspace: str) -> set[str]:
    """Paths recorded but neither read nor changed: command folders and the targets of failed writes."""
    others = [
        m
        for m in messages
        if isinstance(m, ToolResultMessage)
        and (m.name in COMMAND_TOOLS or (m.name in WRITING_TOOLS and m.is_error))
    ]
    return {".", *touched_paths(others, workspace)}


def _earlier_calls(lines: Sequence[str]) -> Counter[str]:
    calls: Counter[str] = Counter()
    for line in lines:
        match = _CALLS_LINE.match(line)
        if match is not None:
            calls[match.group(1)] += int(match.group(2))
    return calls


def _bullets(lines: Sequence[str]) -> list[str]:
    return [line for line in lines if line.startswith("- ")]


def _is_request(message: Message) -> bool:
    if not isinstance(message, UserMessage) or message.meta.kind == "context":
        return False
    return bool(message.content.strip()) and not message.content.startswith(ENVIRONMENT_CONTEXT_TAG)


def _first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0] if stripped else "(no output)"
