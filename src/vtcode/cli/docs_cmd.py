"""The man page and shell completion scripts, generated from the same argparse tree as `--help`."""

from __future__ import annotations

import shtab
from build_manpages.manpage import Manpage

from vtcode import __version__
from vtcode.cli.parser import build_parser


def completion_script(shell: str) -> str:
    """A static completion script for bash, zsh or fish (no program run per TAB)."""
    return str(shtab.complete(build_parser(), shell=shell))


def man_page() -> str:
    """The vtcode(1) man page in roff."""
    data = {
        "prog": "vtcode",
        "version": __version__,
        "description": "a terminal coding agent",
        "project_name": "vtcode",
    }
    return str(Manpage(build_parser(), _data=data))
