"""A command of actions named alone (`vtcode checkpoints`) shows its help and exits 0, as git and gh do.

The commands are read off the real parser, so a command of actions added later is checked too.
"""

from __future__ import annotations

import argparse

import pytest
from tests.conftest import VtcodeRunner

from vtcode.cli.parser import build_parser


def _commands_of_actions() -> list[str]:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(
        name
        for name, parser in commands.choices.items()
        if any(isinstance(action, argparse._SubParsersAction) for action in parser._actions)
    )


def test_the_parser_has_the_commands_of_actions_this_test_expects() -> None:
    assert {"batch", "checkpoints", "hooks", "mcp", "sessions", "skills"} <= set(_commands_of_actions())


@pytest.mark.parametrize("command", _commands_of_actions())
def test_a_command_of_actions_without_one_shows_its_help(vtcode: VtcodeRunner, command: str) -> None:
    result = vtcode.run(command)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"usage: vtcode {command} ")
    assert "ACTION" in result.stdout
    assert result.stderr == ""
