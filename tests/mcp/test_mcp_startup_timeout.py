"""A stdio MCP server that never answers at start-up is given up on after its start-up timeout."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import VtcodeRunner
from tests.exec.helpers import alive
from tests.mcp.helpers import DEMO_SERVER


def _gone_soon(pid: int) -> bool:
    deadline = time.monotonic() + 20
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def _end(pid_file: Path) -> None:
    """Kill a server a failed test left running."""
    if pid_file.exists() and alive(pid := int(pid_file.read_text())):
        os.kill(pid, 9)


def _add_hanging_server(vtcode: VtcodeRunner, pid_file: Path) -> None:
    added = vtcode.run(
        "mcp", "add", "slow", "--", sys.executable, str(DEMO_SERVER), "--hang", "--pid-file", str(pid_file)
    )
    assert added.code == 0, added.stderr


def test_mcp_list_reports_a_server_that_never_answers_and_ends_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    pid_file = tmp_path / "slow.pid"
    _add_hanging_server(vtcode, pid_file)
    try:
        result = vtcode.run("mcp", "-c", "mcp_servers.slow.startup_timeout_seconds=1", "list", timeout=90)
    except subprocess.TimeoutExpired:
        raise AssertionError("vtcode mcp list hung on a server that never answers") from None
    finally:
        pid = int(pid_file.read_text()) if pid_file.exists() else None
        survived = pid is not None and not _gone_soon(pid)
        _end(pid_file)
    assert result.code == 0, result.stderr
    assert "slow                 failed" in result.stdout
    assert "did not start within 1 s (startup_timeout_seconds)" in result.stdout
    assert pid is not None
    assert not survived
