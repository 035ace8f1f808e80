"""web_fetch through the real CLI: denied in `exec` without an allow rule, off by tools.web_fetch=false."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply, ScriptToolCall
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
