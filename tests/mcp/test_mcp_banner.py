"""An MCP server that prints a banner on stdout before speaking JSON-RPC: a one-line note, no traceback."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.mcp.helpers import DEMO_SERVER, call, tool_results
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

_BANNER = "Demo MCP server v1.2 starting (stdio)"


def _add_banner_server(vtcode: VtcodeRunner) -> None:
    script = (
        f"echo {shlex.quote(_BANNER)}; exec {shlex.quote(sys.executable)} {shlex.quote(str(DEMO_SERVER))}"
    )
    added = vtcode.run("mcp", "add", "banner", "--", "sh", "-c", script)
    assert added.code == 0, added.stderr


def test_mcp_list_with_a_banner_printing_server_shows_no_traceback(vtcode: VtcodeRunner) -> None:
    _add_banner_server(vtcode)
    listed = vtcode.run("mcp", "list")
    assert listed.code == 0, listed.stderr
    assert "Traceback" not in listed.stderr
    assert "banner" in listed.stdout
    # Said once, in one line, naming the server and what it printed.
    notes = [line for line in listed.stderr.splitlines() if "not JSON-RPC" in line]
    assert len(notes) == 1, listed.stderr
    assert "banner" in notes[0]
    assert _BANNER in notes[0]


def test_exec_with_a_banner_printing_server_calls_it_without_a_traceback(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    _add_banner_server(vtcode)
    script = [Reply(tool_calls=(call("mcp__banner__echo", {"text": "hello"}, "c1"),)), Reply(text="done")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec",
            "--approval",
            "full-auto",
            # The server starts while the machine may be busy: wait for it before the first request.
            "-c",
            "mcp.startup_grace_seconds=60",
            *cli_args("chat"),
            "echo it",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
        bodies = [r.json() for r in server.requests]
    assert result.code == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert tool_results(bodies[1]) == {"c1": "hello"}
    assert len([line for line in result.stderr.splitlines() if "not JSON-RPC" in line]) == 1, result.stderr
