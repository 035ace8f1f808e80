"""The man page and shell completion scripts, generated from the same argparse tree as `--help`."""

from __future__ import annotations

import argparse
import functools
import re
from typing import cast

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
    parser = build_parser()
    _narrow_usage(parser)
    page = str(Manpage(parser, _data=data)).rstrip("\n")
    return escape_text_lines(keep_preformatted_blocks(page) + "\n" + _EXTRA_SECTIONS)


# Usage lines are kept as argparse breaks them (no-fill); at this width they fit an 80-column
# terminal after the man page's 7-column indent, whatever terminal the page was generated on.
_USAGE_WIDTH = 72


def _narrow_usage(parser: argparse.ArgumentParser) -> None:
    """Format the usage of `parser` and of every command below it at `_USAGE_WIDTH` columns."""
    formatter = cast("type[argparse.HelpFormatter]", parser.formatter_class)
    parser.formatter_class = functools.partial(formatter, width=_USAGE_WIDTH)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                _narrow_usage(child)


def keep_preformatted_blocks(roff: str) -> str:
    """Roff with each block of text laid out in columns (a usage, a table) in no-fill mode.

    argparse-manpage writes a command's usage and a raw description as plain text: filled, their
    aligned continuation lines would run together into one ragged paragraph. A block (text lines
    between blank lines, no requests) with an indented line after its first is laid out by hand.
    """
    out: list[str] = []
    for block in roff.split("\n\n"):
        lines = block.split("\n")
        # A section heading may open the block (`.SH COMMAND ...` then the usage).
        head = 0
        while head < len(lines) and lines[head].startswith("."):
            head += 1
        text = lines[head:]
        laid_out = any(line.startswith(" ") for line in text[1:]) or all(
            line.startswith("  ") for line in text
        )
        if text and laid_out and not any(line.startswith((".", "'")) for line in text):
            lines = [*lines[:head], ".nf", *text, ".fi"]
        out.append("\n".join(lines))
    return "\n\n".join(out)


# What argparse cannot tell: the environment, the files and the exit codes (SPEC sections 2 and 3).
_EXTRA_SECTIONS = r""".SH ENVIRONMENT
.TP
.B ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY
select and authenticate a provider (the first one set, in this order, when none is configured).
.TP
.B OPENAI_BASE_URL, ANTHROPIC_BASE_URL, OLLAMA_HOST
point a provider at another endpoint (OLLAMA_HOST may omit the scheme, as Ollama writes it).
.TP
.B VTCODE_PROVIDER, VTCODE_MODEL, VTCODE_PROFILE, VTCODE_APPROVAL
set agent.provider, agent.model, agent.system_prompt_mode and agent.approval.
.TP
.B VTCODE_HOME
where vtcode keeps its configuration and sessions (default ~/.vtcode).
.TP
.B VTCODE_DEBUG
1 logs tracebacks and debug messages on stderr.
.TP
.B VTCODE_SANDBOX_PRETEND_MISSING
landlock, userns or both (comma-separated): the sandbox behaves as on a kernel without them, to try
its fallbacks.
.SH FILES
.TP
.B $VTCODE_HOME/vtcode.toml
the user configuration.
.TP
.B vtcode.toml, .vtcode/vtcode.toml
the workspace configuration: it may tighten approval and the sandbox, never loosen them, and cannot
choose endpoints, MCP servers, the shell or prices.
.TP
.B $VTCODE_HOME/sessions/ID/
a stored session: history.jsonl, meta.json, envelope.json, events.jsonl, usage.json, archive/.
.TP
.B $VTCODE_HOME/checkpoints/ID/, $VTCODE_HOME/snapshots/PROJECT/
a session's checkpoints (pre-images, turns, restores) and the private git directory of a workspace's
tree snapshots (never the workspace's .git); see vtcode rewind and vtcode checkpoints gc.
.TP
.B .vtcode/hooks.json, $VTCODE_HOME/hooks.json
lifecycle hooks in Claude Code's JSON shape (a workspace's run only once trusted: vtcode hooks trust).
.TP
.B .mcp.json
a project's MCP servers (Claude Code's format), started only once trusted.
.TP
.B AGENTS.md, CLAUDE.md, .vtcode/rules/
project instructions; your own AGENTS.md in ~, $VTCODE_HOME and ~/.config/vtcode
(see vtcode instructions).
.TP
.B .vtcode/context/tool_outputs/, .vtcode/context/stdin/
spooled command output and piped stdin, in the workspace.
.SH EXIT STATUS
.TP
.B 0
done.
.TP
.B 1
the agent failed (max turns, a repeated call, an empty or invalid answer), or the run reached
its budget (--max-budget-usd, --max-tokens-total).
.TP
.B 2
usage or configuration error.
.TP
.B 3
the steering queue is full.
.TP
.B 4
provider error after retries (auth, quota, network, ...).
.TP
.B 129
the terminal hung up (SIGHUP): its window or connection closed.
.TP
.B 130, 143
interrupted (SIGINT), terminated (SIGTERM).
"""


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
