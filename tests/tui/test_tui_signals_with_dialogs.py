"""A TUI with a dialog open still ends on SIGTERM, SIGHUP or the loss of its terminal, and loses nothing.

Real terminals (tmux) and the real `vtcode` process against the loopback model server: the approval
dialog waits for a tool call of the model, the MCP-trust dialog for a project's `.mcp.json`.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import psutil

from tests.mcp.helpers import DEMO_SERVER
from tests.tui.tmux_terminal import (
    NEEDS_TMUX,
    Terminal,
    exit_status,
    restored,
    terminal,
    vtcode_command,
    vtcode_env,
    vtcode_process,
)
from vtcode.runtime.approval_port import WITHDRAWN
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.server import WireServer
from vtcode.testing.wire import server_for

pytestmark = NEEDS_TMUX

PROVIDER = ("--provider", "openai", "--model", "gpt-4.1")
PROMPT = "create the marker file"
# Generous: the machine is shared; a process that hangs never ends at all.
EXIT_TIMEOUT = 60.0


def _vtcode_asking() -> str:
    return vtcode_command(*PROVIDER, "--approval", "ask")


def _approval_script() -> list[Reply]:
    call = ScriptToolCall("exec_command", json.dumps({"cmd": "touch marker.txt"}), id="c1")
    return [Reply(tool_calls=(call,)), Reply(text="resumed answer")]


def _open_approval(term: Terminal) -> psutil.Process:
    """Send the prompt and wait for the approval dialog; the vtcode process."""
    term.wait_for(lambda: "ready" in term.screen(), "the prompt")
    term.type(PROMPT)
    term.wait_for(lambda: "Ctrl+A" in term.screen(), "the approval dialog")
    return vtcode_process(term)


def _ended(process: psutil.Process) -> bool:
    try:
        process.wait(EXIT_TIMEOUT)
    except psutil.TimeoutExpired:
        return False
    return True


def _resumed_request(tmp_path: Path, server: WireServer, screen: str | None) -> dict[str, Any]:
    """Resume the session the TUI named on leaving (`screen`), or the last one in `tmp_path`; the body of
    the model request that resume sends."""
    if screen is None:
        resume = ["--continue"]
    else:
        found = re.search(r"vtcode --resume (\S+)", screen)
        assert found is not None, screen
        resume = ["--resume", found.group(1)]
    done = subprocess.run(
        [sys.executable, "-m", "vtcode", "exec", *PROVIDER, *resume, "go on"],
        cwd=tmp_path,
        env=vtcode_env(server.base_url),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    body: dict[str, Any] = server.requests[-1].json()
    return body


def _assert_nothing_lost(body: dict[str, Any]) -> None:
    """The prompt, the model's call and its answer (never approved, not run) reach the model on resume."""
    messages = body["messages"]
    users = [m["content"] for m in messages if m["role"] == "user"]
    assert PROMPT in users
    assert users[-1] == "go on"
    calls = [c for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    assert [(c["id"], c["function"]["name"]) for c in calls] == [("c1", "exec_command")]
    results = [(m["tool_call_id"], m["content"]) for m in messages if m["role"] == "tool"]
    assert results == [("c1", f"ERROR: {WITHDRAWN}")]


def test_sigterm_with_an_approval_open_exits_143_restores_the_terminal_and_keeps_the_call(
    tmp_path: Path,
) -> None:
    with (
        server_for("chat", _approval_script()) as server,
        terminal(tmp_path, _vtcode_asking(), vtcode_env(server.base_url)) as term,
    ):
        process = _open_approval(term)
        os.kill(process.pid, signal.SIGTERM)
        assert _ended(process), term.screen()
        term.wait_for(lambda: exit_status(term) is not None, "the shell to report the exit status")
        screen = term.screen()
        assert exit_status(term) == "143"
        assert restored(term)
        assert "Traceback" not in screen
        assert not (tmp_path / "marker.txt").exists()
        _assert_nothing_lost(_resumed_request(tmp_path, server, screen))


def test_sighup_with_an_approval_open_exits_129_and_restores_the_terminal(tmp_path: Path) -> None:
    with (
        server_for("chat", _approval_script()) as server,
        terminal(tmp_path, _vtcode_asking(), vtcode_env(server.base_url)) as term,
    ):
        process = _open_approval(term)
        os.kill(process.pid, signal.SIGHUP)
        assert _ended(process), term.screen()
        term.wait_for(lambda: exit_status(term) is not None, "the shell to report the exit status")
        assert exit_status(term) == "129"
        assert restored(term)
        assert "Traceback" not in term.screen()


def test_losing_the_terminal_with_an_approval_open_ends_vtcode_and_keeps_the_session(tmp_path: Path) -> None:
    with (
        server_for("chat", _approval_script()) as server,
        terminal(tmp_path, _vtcode_asking(), vtcode_env(server.base_url)) as term,
    ):
        process = _open_approval(term)
        term.kill_server()
        # The kernel hangs the terminal up: SIGHUP and SIGCONT, and every write after fails.
        assert _ended(process), "vtcode outlived its terminal"
        _assert_nothing_lost(_resumed_request(tmp_path, server, None))


def _mcp_project(workspace: Path) -> None:
    server = {"command": sys.executable, "args": [str(DEMO_SERVER), "--pid-file", str(workspace / "mcp.pid")]}
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"repo": server}}))


def _open_mcp_trust(tmp_path: Path, term: Terminal) -> psutil.Process:
    term.wait_for(lambda: ".mcp.json" in term.screen(), "the MCP trust dialog")
    return vtcode_process(term)


def test_sigterm_with_the_mcp_trust_dialog_open_exits_143_and_starts_nothing(tmp_path: Path) -> None:
    _mcp_project(tmp_path)
    with (
        server_for("chat", []) as server,
        terminal(tmp_path, vtcode_command(*PROVIDER), vtcode_env(server.base_url)) as term,
    ):
        process = _open_mcp_trust(tmp_path, term)
        os.kill(process.pid, signal.SIGTERM)
        assert _ended(process), term.screen()
        term.wait_for(lambda: exit_status(term) is not None, "the shell to report the exit status")
        assert exit_status(term) == "143"
        assert restored(term)
        assert "Traceback" not in term.screen()
        assert not (tmp_path / "mcp.pid").exists()


def test_losing_the_terminal_with_the_mcp_trust_dialog_open_ends_vtcode(tmp_path: Path) -> None:
    _mcp_project(tmp_path)
    with (
        server_for("chat", []) as server,
        terminal(tmp_path, vtcode_command(*PROVIDER), vtcode_env(server.base_url)) as term,
    ):
        process = _open_mcp_trust(tmp_path, term)
        term.kill_server()
        assert _ended(process), "vtcode outlived its terminal"
        assert not (tmp_path / "mcp.pid").exists()


def test_a_stop_and_continue_still_suspends_and_resumes_the_tui(tmp_path: Path) -> None:
    # The hang-up guard must not break Ctrl+Z / `fg`: only SIGCONT after the TUI's own suspend restarts it.
    with (
        server_for("chat", [Reply(text="answer after fg")]) as server,
        terminal(tmp_path, vtcode_command(*PROVIDER), vtcode_env(server.base_url)) as term,
    ):
        term.wait_for(lambda: "ready" in term.screen(), "the prompt")
        process = vtcode_process(term)
        os.kill(process.pid, signal.SIGTSTP)
        term.wait_for(lambda: process.status() == psutil.STATUS_STOPPED, "vtcode to stop")
        assert term.show("alternate_on") == "0"
        os.kill(process.pid, signal.SIGCONT)
        term.wait_for(lambda: term.show("alternate_on") == "1", "the TUI to come back")
        term.type("after fg")
        term.wait_for(lambda: "answer after fg" in term.screen(), "the answer")
        assert server.requests[0].json()["messages"][-1]["content"] == "after fg"
