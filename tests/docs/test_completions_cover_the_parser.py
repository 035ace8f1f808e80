"""The shell completions offer every command, action and long option the parser has (bash and fish)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from vtcode.cli.docs_cmd import completion_script
from vtcode.cli.parser import build_parser

_BASH = """
source "$1"; shift
fn=$(complete -p vtcode | sed -E 's/.* -F ([^ ]+) .*/\\1/')
COMP_WORDS=(vtcode "$@"); COMP_CWORD=$#; COMP_LINE="vtcode $*"; COMP_POINT=${#COMP_LINE}
"$fn" vtcode "${@: -1}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "${COMPREPLY[@]}"
"""


def _parsers(
    parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield words, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _parsers(child, (*words, name))


def _subcommands(parser: argparse.ArgumentParser) -> set[str]:
    return {
        name
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    }


def _long_options(parser: argparse.ArgumentParser) -> set[str]:
    return {o for action in parser._actions for o in action.option_strings if o.startswith("--")}


def _offered(shell: str, script: Path, words: tuple[str, ...]) -> set[str]:
    if shell == "bash":
        argv = ["bash", "--norc", "--noprofile", "-c", _BASH, "bash", str(script), *words]
    else:
        argv = ["fish", "--no-config", "-c", f"source {script}; complete -C 'vtcode {' '.join(words)}'"]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True).stdout
    return {line.split("\t", 1)[0] for line in out.splitlines() if line}


@pytest.mark.parametrize("shell", ["bash", "fish"])
def test_completions_offer_every_command_and_long_option(shell: str, tmp_path: Path) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    script = tmp_path / f"vtcode.{shell}"
    script.write_text(completion_script(shell))
    missing: list[str] = []
    for words, parser in _parsers(build_parser()):
        commands = _subcommands(parser)
        if commands:
            missing += [" ".join((*words, c)) for c in commands - _offered(shell, script, (*words, ""))]
        options = _long_options(parser)
        missing += [" ".join((*words, o)) for o in options - _offered(shell, script, (*words, "--"))]
    assert missing == []
