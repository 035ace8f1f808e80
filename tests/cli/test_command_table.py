"""The dispatch table of `vtcode COMMAND`: every parsed command has a runner that takes what main passes."""

from __future__ import annotations

import argparse
import inspect

from vtcode.cli.main import COMMANDS, command_runner
from vtcode.cli.parser import build_parser

# Dispatched outside the table: they print a text (docs) or are not commands (the interactive TUI).
_OUTSIDE_THE_TABLE = {"completions", "man"}


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and action.dest == "command":
            return set(action.choices)
    raise AssertionError("no COMMAND subparsers")


def test_every_command_of_the_parser_is_in_the_dispatch_table_or_dispatched_beside_it() -> None:
    names = _command_names(build_parser())
    assert names - _OUTSIDE_THE_TABLE == set(COMMANDS)


def test_every_table_runner_accepts_the_arguments_main_gives_it() -> None:
    for command in COMMANDS:
        runner = command_runner(command)
        assert runner is not None, command
        inspect.signature(runner).bind(argparse.Namespace(), [])


def test_a_command_outside_the_table_has_no_runner() -> None:
    assert command_runner("completions") is None
