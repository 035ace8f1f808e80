"""Commands with actions (`vtcode hooks list`, `vtcode skills new`, `vtcode mcp add`): one dispatch rule."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping

from vtcode.protocol.errors import ExitCode

Action = Callable[[argparse.Namespace, list[str]], int]


def run_action(
    command: str,
    actions: Mapping[str, Action],
    args: argparse.Namespace,
    overrides: list[str],
    parser: argparse.ArgumentParser,
) -> int:
    """Run the action `vtcode COMMAND ACTION` names; without a known one, show the command's help."""
    action = actions.get(getattr(args, f"{command}_command", None) or "")
    if action is None:
        parser.parse_args([command, "--help"])
        return ExitCode.USAGE
    return action(args, overrides)


def add_workspace_option(
    *parsers: argparse.ArgumentParser, help_text: str = "the workspace directory (default: the current one)"
) -> None:
    """`--workspace/-C DIR` on each of `parsers` (left unset when not given: the current directory)."""
    for parser in parsers:
        parser.add_argument("--workspace", "-C", metavar="DIR", default=argparse.SUPPRESS, help=help_text)
