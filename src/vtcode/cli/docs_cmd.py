"""The man page and shell completion scripts, generated from the same argparse tree as `--help`."""

from __future__ import annotations

import re

import shtab
from build_manpages.manpage import Manpage

from vtcode import __version__
from vtcode.cli.parser import build_parser


def completion_script(shell: str) -> str:
    """A static completion script for bash, zsh or fish (no program run per TAB)."""
    return str(shtab.complete(build_parser(), shell=shell))


# The requests argparse-manpage writes itself; any other line starting with "." or "'" is text.
_GENERATED_REQUEST = re.compile(
    r"\.(?:TH|SH|SS|TP|B|I|BR|IR|RB|RI|RS|RE|PP|LP|IP|HP|br|sp|nf|fi|UR|UE|PD|\\\")(?: |$)"
)


def man_page() -> str:
    """The vtcode(1) man page in roff."""
    data = {
        "prog": "vtcode",
        "version": __version__,
        "description": "a terminal coding agent",
        "project_name": "vtcode",
        "manual_title": "vtcode manual",
    }
    return escape_text_lines(str(Manpage(build_parser(), _data=data)))


def escape_text_lines(roff: str) -> str:
    """Roff with every text line that starts with "." or "'" escaped, so it is printed, not run.

    Help text wrapped so that a line begins with `.vtcode/vtcode.toml` would otherwise be read as an
    unknown request and vanish from the page.
    """
    lines = roff.split("\n")
    for index, line in enumerate(lines):
        if line.startswith(("'", ".")) and not _GENERATED_REQUEST.match(line):
            lines[index] = "\\&" + line
    return "\n".join(lines)
