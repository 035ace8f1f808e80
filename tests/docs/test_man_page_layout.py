"""The man page and `--help` name each command as typed, and `man` lays the page out cleanly."""

from __future__ import annotations

import argparse
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from tests.conftest import VtcodeRunner
from vtcode.cli.docs_cmd import man_page
from vtcode.cli.parser import build_parser

needs_groff = pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")


def _commands(
    parser: argparse.ArgumentParser, path: str = "vtcode"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield f"{path} {name}", child
                yield from _commands(child, f"{path} {name}")


def _render(roff: str) -> subprocess.CompletedProcess[str]:
    # -ww: every warning, as `man` itself would hide them; -P -cbou: plain text, no overstrike.
    return subprocess.run(
        ["groff", "-man", "-Tutf8", "-ww", "-P", "-cbou"],
        input=roff,
        capture_output=True,
        text=True,
        check=True,
    )


def test_every_command_usage_starts_with_the_command_as_typed() -> None:
    wrong = [
        (path, child.format_usage().split("\n", 1)[0])
        for path, child in _commands(build_parser())
        if not child.format_usage().startswith(f"usage: {path} [-h]")
    ]
    assert wrong == []


def test_subcommand_help_and_errors_name_the_subcommand(vtcode: VtcodeRunner) -> None:
    helped = vtcode.run("sessions", "list", "--help")
    assert helped.code == 0, helped.stderr
    assert helped.stdout.startswith("usage: vtcode sessions list [-h]")
    failed = vtcode.run("sessions", "show")
    assert failed.code == 2
    assert "vtcode sessions show: error: the following arguments are required: ID" in failed.stderr


@needs_groff
def test_man_page_renders_without_any_groff_warning() -> None:
    rendered = _render(man_page())
    assert rendered.stderr == ""


@needs_groff
def test_a_long_usage_keeps_its_line_breaks_in_the_man_page() -> None:
    lines = [line.strip() for line in _render(man_page()).stdout.split("\n")]
    start = lines.index(next(line for line in lines if line.startswith("usage: vtcode exec [-h]")))
    rendered_usage = lines[start : lines.index("", start)]
    assert len(rendered_usage) > 5
    assert rendered_usage[1].startswith("[")  # each continuation line of argparse's usage stays a line
    assert all(len(line) <= 80 - 7 for line in rendered_usage[:3])


@needs_groff
def test_the_batch_folder_table_keeps_its_columns_in_the_man_page() -> None:
    lines = [line.strip() for line in _render(man_page()).stdout.split("\n")]
    assert any(line.startswith("OUT/run.json") and "pinned flags" in line for line in lines)
    assert any(line.startswith("OUT/summary.json") and "counts by status" in line for line in lines)
