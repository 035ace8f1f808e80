"""A handler's `if`: Claude Code's permission-rule condition that narrows a tool hook to some calls.

`"if": "Bash(git *)"` runs the handler only for commands that match, `"Edit(src/**/*.ts)"` only for
edits of such files (gitignore-style globs from the workspace root). A rule names a tool by its Claude
Code or vtcode name. As in Claude Code the filter fails open: a rule or a command that cannot be read
runs the handler, since a guard that runs too often is safer than one that never runs.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from typing import Any

from vtcode.core.command_match import dynamic_program, match_deny, split_command
from vtcode.core.instructions.globs import PatternError, compile_pattern

_RULE = re.compile(r"\s*([A-Za-z0-9_.-]+)\s*(?:\((.*)\))?\s*", re.DOTALL)
_SHELL_NAMES = frozenset({"Bash", "exec_command"})
# Claude Code's `Edit(...)` rules cover every tool that edits files.
_EDIT_NAMES = frozenset({"Edit", "Write", "MultiEdit"})


def condition_holds(rule: str, names: Sequence[str], tool_input: Mapping[str, Any], workspace: str) -> bool:
    """Whether a call known by `names`, with `tool_input`, meets the `if` rule (unreadable: True)."""
    parsed = _RULE.fullmatch(rule)
    if parsed is None:
        return True
    tool, pattern = parsed.group(1), parsed.group(2)
    if tool not in names and not (tool == "Edit" and _EDIT_NAMES & set(names)):
        return False
    pattern = (pattern or "").strip()
    if pattern in ("", "*"):
        return True
    if _SHELL_NAMES & set(names):
        return _command_holds(pattern, tool_input)
    paths = _paths(tool_input, workspace)
    if not paths:
        return True
    try:
        compiled = compile_pattern(pattern)
    except PatternError:
        return True
    return any(compiled.matches(path) for path in paths)


def _command_holds(pattern: str, tool_input: Mapping[str, Any]) -> bool:
    command = tool_input.get("command", tool_input.get("cmd"))
    if not isinstance(command, str):
        return True
    if split_command(command) is None or dynamic_program(command) is not None:
        return True
    # Claude Code's legacy `npm run test:*` is the prefix `npm run test`.
    rule = pattern.removesuffix(":*") if pattern.endswith(":*") else pattern
    return match_deny(command, [rule]) is not None


def _paths(tool_input: Mapping[str, Any], workspace: str) -> list[str]:
    """The workspace-relative POSIX paths a call names."""
    found: list[str] = []
    named = tool_input.get("file_paths")
    candidates = list(named) if isinstance(named, list) else []
    candidates += [tool_input.get(key) for key in ("file_path", "path")]
    root = workspace.rstrip("/") + "/"
    for named_path in candidates:
        if not isinstance(named_path, str) or not named_path:
            continue
        relative = named_path.removeprefix(root) if named_path.startswith(root) else named_path
        path = posixpath.normpath(relative.removeprefix("./"))
        if path not in found:
            found.append(path)
    return found
