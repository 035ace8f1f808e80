"""Commands with actions (`vtcode hooks list`, `vtcode skills new`, `vtcode mcp add`): one dispatch rule."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping

Action = Callable[[argparse.Namespace, list[str]], int]


def run_action(
    command: str, actions: Mapping[str, Action], args: argparse.Namespace, overrides: list[str]
) -> int:
    """Run the action `vtcode COMMAND ACTION` names (without one, `main` has shown the command's help)."""
    return actions[getattr(args, f"{command}_command")](args, overrides)


def add_workspace_option(
    *parsers: argparse.ArgumentParser, help_text: str = "the workspace directory (default: the current one)"
) -> None:
    """`--workspace/-C DIR` on each of `parsers` (left unset when not given: the current directory)."""
    for parser in parsers:
        parser.add_argument("--workspace", "-C", metavar="DIR", default=argparse.SUPPRESS, help=help_text)
