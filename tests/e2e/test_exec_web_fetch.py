"""web_fetch through the real CLI: allow rules in `exec`, denied without one, off by tools.web_fetch=false."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.conftest import Completed, VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.web_netns import Route, WebServer, network_namespace_problem, run_in_network_namespace
from vtcode.testing.wire import cli_args, cli_env, server_for


def _fetch(url: str) -> Reply:
    return Reply(tool_calls=(ScriptToolCall("web_fetch", json.dumps({"url": url}), id="w1"),))


def _tool_results(body: dict[str, object]) -> list[str]:
    messages = body["messages"]
    assert isinstance(messages, list)
    return [str(m["content"]) for m in messages if m["role"] == "tool"]


def _tool_names(body: dict[str, object]) -> list[str]:
    tools = body.get("tools", [])
    assert isinstance(tools, list)
    return [t["function"]["name"] for t in tools]


def test_exec_denies_a_fetch_without_an_allow_rule_even_in_full_auto(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    script = [_fetch("https://docs.python.org/3/"), Reply(text="ok")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "--approval", "full-auto", *cli_args("chat"), "read the docs",
            cwd=tmp_path, env=cli_env("chat", server),
        )  # fmt: skip
        first, last = server.requests[0].json(), server.requests[-1].json()
    assert result.code == 0, result.stderr
    assert "web_fetch" in _tool_names(first)
    assert _tool_results(last) == [
        "ERROR: not run: `web_fetch` from docs.python.org is not allowed in a headless run without an "
        "[approvals] allow rule; ask the user to add `web_fetch(domain:docs.python.org)` to [approvals] allow"
    ]


def test_tools_web_fetch_false_turns_the_tool_off(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    script = [_fetch("https://docs.python.org/3/"), Reply(text="ok")]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", "-c", "tools.web_fetch=false", "--approval", "full-auto", *cli_args("chat"), "read",
            cwd=tmp_path, env=cli_env("chat", server),
        )  # fmt: skip
        first, last = server.requests[0].json(), server.requests[-1].json()
    assert result.code == 0, result.stderr
    assert "web_fetch" not in _tool_names(first)
    assert "exec_command" in _tool_names(first)
    told = _tool_results(last)
    assert len(told) == 1
    assert told[0].startswith("ERROR: unknown tool 'web_fetch'")


@pytest.mark.skipif(network_namespace_problem() is not None, reason="no network namespace for tests")
def test_exec_fetches_a_domain_its_allow_rule_names(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    # The CLI runs inside a private network namespace with a page on a public-looking address.
    page = WebServer({"/doc": Route(b"<h1>Allowed page</h1>")})
    script = [_fetch("http://93.184.216.34:8080/doc"), Reply(text="ok")]
    rule = ["-c", 'approvals.allow=["web_fetch(domain:93.184.216.34)"]']

    async def main() -> tuple[Completed, list[str]]:
        await page.start("93.184.216.34", 8080)
        try:
            with server_for("chat", script) as server:
                result = await asyncio.to_thread(
                    vtcode.run,
                    "exec",
                    *rule,
                    *cli_args("chat"),
                    "read",
                    cwd=tmp_path,
                    env=cli_env("chat", server),
                )
                return result, _tool_results(server.requests[-1].json())
        finally:
            await page.close()

    result, told = run_in_network_namespace(["93.184.216.34"], main)
    assert result.code == 0, result.stderr
    assert page.paths == ["/doc"]
    assert len(told) == 1
    assert "# Allowed page" in told[0]
    assert '<untrusted-web-content url="http://93.184.216.34:8080/doc" format="markdown">' in told[0]
