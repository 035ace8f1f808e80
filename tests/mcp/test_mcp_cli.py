"""`vtcode exec` with MCP servers end to end, and `vtcode mcp list|add|remove` on the user config."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.mcp.everything import everything_command
from tests.mcp.helpers import DEMO_SERVER, call, tool_results
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

# These tests are about the call, not the start-up grace: a loaded machine (parallel test workers) may take
# longer than the default 3 s to start a Python server.
GRACE = ("-c", "mcp.startup_grace_seconds=60")


def _add_demo(vtcode: VtcodeRunner, name: str = "demo") -> None:
    added = vtcode.run("mcp", "add", name, "--", sys.executable, str(DEMO_SERVER))
    assert added.code == 0, added.stderr


def test_exec_calls_a_configured_server_and_the_model_reads_the_result(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    _add_demo(vtcode)
    script = [Reply(tool_calls=(call("mcp__demo__echo", {"text": "from exec"}, "c1"),)), Reply(text="done")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "--json", "--approval", "full-auto", *GRACE, *cli_args("chat"), "echo it",
            cwd=tmp_path, env=cli_env("chat", server),
        )  # fmt: skip
        bodies = [r.json() for r in server.requests]
    assert result.code == 0, result.stderr
    assert tool_results(bodies[1]) == {"c1": "from exec"}
    completed = [e["item"] for e in events(result.stdout) if e["type"] == "item.completed"]
    assert completed[0]["type"] == "tool_call"
    assert completed[0]["name"] == "mcp__demo__echo"


def test_exec_in_auto_edit_denies_an_mcp_call_with_a_reason(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    _add_demo(vtcode)
    script = [Reply(tool_calls=(call("mcp__demo__echo", {"text": "x"}, "c1"),)), Reply(text="done")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", *GRACE, *cli_args("chat"), "echo it", cwd=tmp_path, env=cli_env("chat", server)
        )
        bodies = [r.json() for r in server.requests]
    assert result.code == 0, result.stderr
    reason = tool_results(bodies[1])["c1"]
    assert "auto-edit" in reason
    assert "[approvals] allow" in reason


def test_exec_with_the_reference_server_everything(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    node, entry = everything_command()
    added = vtcode.run("mcp", "add", "everything", "--", node, entry, "stdio")
    assert added.code == 0, added.stderr
    script = [
        Reply(tool_calls=(call("mcp__everything__echo", {"message": "hi there"}, "c1"),)),
        Reply(text="ok"),
    ]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec",
            *GRACE,
            "--approval",
            "full-auto",
            *cli_args("chat"),
            "echo",
            cwd=tmp_path,
            env=cli_env("chat", server),
        )
        bodies = [r.json() for r in server.requests]
    assert result.code == 0, result.stderr
    assert "hi there" in tool_results(bodies[1])["c1"]


def test_exec_with_deny_rule_blocks_the_reference_server(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    node, entry = everything_command()
    vtcode.run("mcp", "add", "everything", "--", node, entry, "stdio")
    script = [Reply(tool_calls=(call("mcp__everything__echo", {"message": "x"}, "c1"),)), Reply(text="ok")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "--approval", "full-auto", *GRACE, "-c", 'approvals.deny=["mcp__everything__*"]',
            *cli_args("chat"), "echo", cwd=tmp_path, env=cli_env("chat", server),
        )  # fmt: skip
        bodies = [r.json() for r in server.requests]
    assert result.code == 0, result.stderr
    assert "deny rule `mcp__everything__*`" in tool_results(bodies[1])["c1"]


def test_mcp_add_list_remove_edit_the_user_config(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    _add_demo(vtcode)
    broken = vtcode.run("mcp", "add", "broken", "--json", "--", str(tmp_path / "missing-program"))
    assert json.loads(broken.stdout)["added"] == "broken"
    listed = vtcode.run("mcp", "list", "--json", cwd=tmp_path)
    assert listed.code == 0, listed.stderr
    servers = {s["name"]: s for s in json.loads(listed.stdout)["servers"]}
    assert servers["demo"]["state"] == "ready"
    assert servers["demo"]["tools"] == 8
    assert servers["broken"]["state"] == "failed"
    assert "missing-program" in servers["broken"]["error"]
    web = vtcode.run("mcp", "add", "web", "--url", "http://127.0.0.1:9/mcp", "--json")
    assert json.loads(web.stdout)["server"] == {"url": "http://127.0.0.1:9/mcp"}
    human = vtcode.run("mcp", "list", cwd=tmp_path)
    assert "demo" in human.stdout
    assert "8 tools" in human.stdout
    assert vtcode.run("mcp", "remove", "broken").code == 0
    config = (vtcode.home / ".vtcode" / "vtcode.toml").read_text()
    assert "[mcp_servers.demo]" in config
    assert "broken" not in config
    missing = vtcode.run("mcp", "remove", "broken")
    assert missing.code == 2
    assert "no MCP server named 'broken'" in missing.stderr


@pytest.mark.parametrize("args", [["mcp", "add", "x"], ["mcp", "add", "x", "--url", "http://h", "--", "cmd"]])
def test_mcp_add_needs_exactly_one_of_a_command_and_a_url(vtcode: VtcodeRunner, args: list[str]) -> None:
    result = vtcode.run(*args)
    assert result.code == 2
    assert "either a command after -- or --url" in result.stderr
    assert "Traceback" not in result.stderr
