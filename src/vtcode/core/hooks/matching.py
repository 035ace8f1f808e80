"""Which hooks a call fires: Claude Code's matcher tiers over vtcode and Claude tool names.

Matcher tiers (reference extensibility.md section 1.7): `*`, `""` or none match everything; a matcher
of only letters, digits, `_`, `-`, spaces, `,` and `|` is an exact name or a list of names; anything else
is a regular expression searched anywhere in the name (unanchored, so `Edit.*` also matches
`NotebookEdit`). A call matches when any of its names does: its vtcode name and the Claude Code names it
stands for (`exec_command` is `Bash`), so a hook written for either product fires for the same call.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from vtcode.core.hooks.model import TOOL_EVENTS, ConfiguredHook, HookEvent, HookSet
from vtcode.core.user_regex import compile_user_regex

# vtcode tool -> the Claude Code (and Codex) names that mean the same tool.
TOOL_ALIASES: dict[str, tuple[str, ...]] = {
    "exec_command": ("Bash",),
    "apply_patch": ("Edit", "Write", "MultiEdit"),
    "write_file": ("Write",),
    "read_file": ("Read",),
    "grep_files": ("Grep",),
    "list_files": ("Glob", "LS"),
    "task": ("Agent", "Task"),
}

# vtcode tool -> the Gemini CLI names that mean the same tool: matched (a Gemini hook's `matcher` of
# `run_shell_command` fires for `exec_command`) but not listed in a hook's `tool_name_aliases`.
GEMINI_TOOL_NAMES: dict[str, tuple[str, ...]] = {
    "exec_command": ("run_shell_command",),
    "apply_patch": ("replace",),
    "grep_files": ("search_file_content", "grep_search"),
    "list_files": ("glob", "list_directory"),
}

_EXACT = re.compile(r"[A-Za-z0-9_\-, |]*")
_SPLIT = re.compile(r"[|,]")


def tool_names(tool: str) -> tuple[str, ...]:
    """The vtcode name of a tool first, then its Claude Code and Gemini CLI aliases."""
    return (tool, *TOOL_ALIASES.get(tool, ()), *GEMINI_TOOL_NAMES.get(tool, ()))


def matcher_error(matcher: str) -> str | None:
    """Why a matcher cannot be used (an invalid regular expression), or None."""
    if _is_all(matcher) or _EXACT.fullmatch(matcher):
        return None
    try:
        compile_user_regex(matcher)
    except re.error as exc:
        return f"invalid regular expression: {exc}"
    return None


def matches(matcher: str, names: Sequence[str]) -> bool:
    """Whether `matcher` selects a subject known by any of `names`."""
    if _is_all(matcher):
        return True
    exact = _exact_names(matcher)
    if exact is not None:
        return any(name in exact for name in names)
    pattern = _regex(matcher)
    return pattern is not None and any(pattern.search(name) for name in names)


def select(hooks: HookSet, event: HookEvent, subject: Sequence[str] | None) -> tuple[ConfiguredHook, ...]:
    """The trusted hooks `event` runs for `subject` (its names; None ignores matchers), each once.

    Identical handlers from several files run once (Claude Code de-duplicates across settings files);
    the first one's source is kept.
    """
    chosen: list[ConfiguredHook] = []
    seen: set[object] = set()
    for hook in hooks.hooks:
        if hook.event != event or not hook.trusted:
            continue
        if subject is not None and not matches(hook.matcher, subject):
            continue
        if hook.handler in seen:
            continue
        seen.add(hook.handler)
        chosen.append(hook)
    return tuple(chosen)


def subject_names(event: HookEvent, tool: str | None, subject: str | None) -> tuple[str, ...] | None:
    """The names a matcher of `event` is compared with: a tool's names, or the event's subject."""
    if event in TOOL_EVENTS and tool is not None:
        return tool_names(tool)
    if subject is not None:
        return (subject,)
    return None


def distinct(values: Iterable[str]) -> tuple[str, ...]:
    """`values` without repeats, in order."""
    return tuple(dict.fromkeys(values))


def _is_all(matcher: str) -> bool:
    return matcher.strip() in ("", "*")


@functools.lru_cache(maxsize=256)
def _exact_names(matcher: str) -> frozenset[str] | None:
    if not _EXACT.fullmatch(matcher):
        return None
    return frozenset(part.strip() for part in _SPLIT.split(matcher) if part.strip())


@functools.lru_cache(maxsize=256)
def _regex(matcher: str) -> re.Pattern[str] | None:
    try:
        return compile_user_regex(matcher)
    except re.error:
        return None  # rejected at load time; a matcher that cannot compile matches nothing
