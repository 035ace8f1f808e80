"""Warnings logged below the CLI (an MCP server's stray output) read like the CLI's own `warning:` lines."""

from __future__ import annotations

import shlex
import sys

from tests.conftest import VtcodeRunner
from tests.mcp.helpers import DEMO_SERVER

_BANNER = "Demo MCP server v1.2 starting (stdio)"


def test_a_library_warning_is_a_plain_warning_line_without_logger_names(vtcode: VtcodeRunner) -> None:
    script = (
        f"echo {shlex.quote(_BANNER)}; exec {shlex.quote(sys.executable)} {shlex.quote(str(DEMO_SERVER))}"
    )
    added = vtcode.run("mcp", "add", "banner", "--", "sh", "-c", script)
    assert added.code == 0, added.stderr
    listed = vtcode.run("mcp", "list")
    assert listed.code == 0, listed.stderr
    assert listed.stderr == (
        "warning: MCP server banner printed a line that is not JSON-RPC on its stdout "
        f"(ignored; servers should log to stderr): {_BANNER}\n"
    )
