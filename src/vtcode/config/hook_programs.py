"""Whether the programs a hook runs exist, checked when the hooks load.

A mistyped script path fails every run with exit 127, which by default lets the action go on: a guard
that is silently off (reference extensibility.md section 1.10). Saying so once when the session starts,
and in `vtcode hooks list`, names the hook before it is needed. Only what is surely missing is reported:
a path (a word with `/`, from the workspace) that is no file, or a command's program that is neither
on PATH nor a shell builtin or keyword.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

from vtcode.core.hooks.digest import run_words
from vtcode.core.hooks.model import HookHandler

# Shell builtins without a program of their own, and keywords, in a command's place.
_SHELL_WORDS = frozenset(
    {
        "exit", "cd", "export", "set", "unset", ".", "source", "eval", "exec", "read", "return", "shift",
        "trap", "wait", "ulimit", "umask", "alias", "if", "then", "else", "elif", "fi", "for", "while",
        "until", "do", "done", "case", "esac", "in", "function", "select", "time", "{", "}", "!", "[[",
        "]]", "readonly", "local", "declare", "typeset", "times", "hash", "type", "command", "builtin",
        "true", "false", "echo", "printf", "test", "[", "pwd", "kill", "let", "getopts", "break",
        "continue", ":",
    }
)  # fmt: skip


def missing_program(
    handler: HookHandler, workspace: Path, env: Mapping[str, str], expand: Callable[[str], str]
) -> str | None:
    """The first program `handler` runs that surely does not exist (as written), or None."""
    search = env.get("PATH", os.defpath)
    for word, is_program in run_words(handler):
        expanded = expand(word)
        if "$" in expanded or "`" in expanded or any(c.isspace() for c in expanded):
            continue  # decided by the shell at run time
        if "/" in expanded:
            target = workspace / os.path.expanduser(expanded)
            if not target.exists():
                return word
            if is_program and not os.access(target, os.X_OK):
                return f"{word} (not executable)"
        elif is_program and expanded not in _SHELL_WORDS and shutil.which(expanded, path=search) is None:
            return word
    return None
