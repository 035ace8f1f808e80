"""Bare `vtcode [PROMPT]`: split the prompt from the options, check for a terminal, start the TUI.

Textual is imported only past the terminal check, so `exec`, `--help` and `--version` never load it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from vtcode.protocol.errors import ExitCode

NEEDS_A_TERMINAL = (
    "vtcode: the interactive mode needs a terminal on stdin and stdout.\n"
    "For pipes and scripts use `vtcode exec PROMPT` (or `vtcode exec -` to read the prompt from stdin);\n"
    "`vtcode exec --json PROMPT` prints one JSON event per line.\n"
)


def split_prompt(argv: Sequence[str], parser: argparse.ArgumentParser) -> tuple[list[str], str | None]:
    """The options before the first positional word, and the prompt when that word is no subcommand.

    `vtcode exec ...` stays the subcommand; `vtcode "fix the tests"` is a prompt; `vtcode -- "exec the
    tests"` forces a prompt even when it starts with a subcommand's name.
    """
    words = list(argv)
    takes_value = {
        option for action in parser._actions for option in action.option_strings if action.nargs != 0
    }
    subcommands: set[str] = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            subcommands.update(action.choices)
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            return words[:index], " ".join(words[index + 1 :]) or None
        if word.startswith("-") and word != "-":
            index += 2 if word in takes_value else 1
            continue
        if word in subcommands:
            return words, None
        return words[:index], " ".join(words[index:])
    return words, None


def run_interactive(
    args: argparse.Namespace,
    overrides: list[str],
    prompt: str | None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Start the TUI, or explain what to do when stdin or stdout is not a terminal (exit 2)."""
    streams = (stdin or sys.stdin, stdout or sys.stdout)
    if not all(_is_terminal(stream) for stream in streams):
        (stderr or sys.stderr).write(NEEDS_A_TERMINAL)
        return ExitCode.USAGE
    from vtcode.cli.session_request import session_request
    from vtcode.tui.launch import run_tui

    return run_tui(session_request(args, overrides), prompt)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (ValueError, AttributeError):
        return False
