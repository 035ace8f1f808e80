"""Start-up without MCP servers does not import the MCP SDK (0.8 s, pydantic); with one it does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.mcp.helpers import DEMO_SERVER
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

SDK = ("mcp", "mcp_types", "pydantic")


def _modules_after_exec(vtcode: VtcodeRunner, cwd: Path) -> list[str]:
    """The SDK modules imported by one `vtcode exec` run in a fresh interpreter."""
    with server_for("chat", [Reply(text="hi")]) as server:
        args = ["vtcode", "exec", *cli_args("chat"), "hello"]
        probe = (
            "import sys, runpy\n"
            f"sys.argv = {args!r}\n"
            "try:\n"
            "    runpy.run_module('vtcode', run_name='__main__')\n"
            "except SystemExit:\n"
            "    pass\n"
            f"print(__import__('json').dumps([m for m in {SDK!r} if m in sys.modules]), file=sys.stderr)\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            check=False,
            cwd=cwd,
            env=vtcode.env(cli_env("chat", server)),
            timeout=60,
        )
    modules: list[str] = json.loads(proc.stderr.strip().splitlines()[-1])
    return modules


def test_exec_without_mcp_servers_does_not_import_the_sdk(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    assert _modules_after_exec(vtcode, tmp_path) == []


def test_exec_with_a_server_imports_it(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    assert vtcode.run("mcp", "add", "demo", "--", sys.executable, str(DEMO_SERVER)).code == 0
    assert "mcp" in _modules_after_exec(vtcode, tmp_path)
