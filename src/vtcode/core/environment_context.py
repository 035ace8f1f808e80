"""The environment context item: where the agent runs, rendered as plain text for a user-role message.

The model starts knowing its working directory, OS and shell, today's date and time zone, the git
branch and whether the tree is dirty, and the approval and sandbox mode, instead of spending tool calls
finding out. The text goes in a context message at the start of a session, not in the static system
prompt, so the prompt's cached prefix stays byte-identical across days and git states. The date has no
time of day, so a session resumed the same day in the same state renders the same text and needs no new
item (compare the texts).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from vtcode.core.git_status import GitState

OPEN_TAG = "<environment_context>"
CLOSE_TAG = "</environment_context>"

# What each approval mode lets the agent do without asking (SPEC section 3), for the model to plan by.
_APPROVAL_MEANING = {
    "read-only": "reads only; edits and commands are refused",
    "ask": "reads freely; edits and commands need approval",
    "auto-edit": "reads and edits freely; commands need approval",
    "full-auto": "reads, edits and commands run without asking",
}


class EnvironmentFacts(msgspec.Struct, frozen=True):
    """Everything the context item says, gathered by an adapter (`exec.environment_facts`)."""

    working_directory: str
    os: str
    shell: str
    # An aware datetime: its date and time zone are shown, never the time of day.
    now: datetime
    # None when the working directory is not inside a git work tree (or git is unavailable).
    git: GitState | None
    approval: str
    sandbox: str
    # The git query ran out of time: the branch is known, the counts are not.
    git_counts_known: bool = True


class ContextParts(msgspec.Struct, frozen=True):
    """Which parts to include (`agent.include_temporal_context`, `agent.include_working_directory`)."""

    temporal: bool = True
    working_directory: bool = True


_ALL_PARTS = ContextParts()


def render_environment_context(facts: EnvironmentFacts, parts: ContextParts = _ALL_PARTS) -> str:
    """The context message text: one fact per line inside `<environment_context>` tags."""
    lines = [OPEN_TAG]
    if parts.working_directory:
        lines.append(f"Working directory: {facts.working_directory}")
    lines.append(f"OS: {facts.os}; shell: {facts.shell}")
    if parts.temporal:
        lines.append(f"Today: {_date(facts.now)}; time zone: {_zone(facts.now)}")
    lines.append(f"Git: {_git(facts.git, counts_known=facts.git_counts_known)}")
    meaning = _APPROVAL_MEANING.get(facts.approval)
    approval = f"{facts.approval} ({meaning})" if meaning else facts.approval
    lines.append(f"Approval mode: {approval}; sandbox: {facts.sandbox}")
    lines.append(CLOSE_TAG)
    return "\n".join(lines)


def is_environment_context(text: str) -> bool:
    """Whether a message text is an environment context item."""
    return text.startswith(OPEN_TAG) and text.rstrip().endswith(CLOSE_TAG)


def _date(now: datetime) -> str:
    return f"{now:%A} {now:%Y-%m-%d}"


def _zone(now: datetime) -> str:
    offset = now.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    utc = f"UTC{sign}{hours:02d}:{rest:02d}"
    name = now.tzname()
    return utc if not name or name in ("UTC", utc) else f"{name} ({utc})"


def _git(state: GitState | None, *, counts_known: bool) -> str:
    if state is None:
        return "not a git repository"
    where = f"branch {state.branch}" if state.branch else f"detached HEAD at {state.commit or 'no commit'}"
    if not counts_known:
        return f"{where}; status not checked (it took too long)"
    if state.clean:
        return f"{where}; clean"
    counts = [
        (state.staged, "staged"),
        (state.modified, "modified"),
        (state.untracked, "untracked"),
        (state.conflicted, "conflicted"),
    ]
    return f"{where}; " + ", ".join(f"{n} {label}" for n, label in counts if n)
