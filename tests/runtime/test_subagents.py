"""Subagents through the `task` tool: a child `Session` against the same loopback model server.

Every assertion is on what the model server received (the child's own request bodies, the result the
parent's model reads) or on files and events, never on the runtime's internals.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.runtime.session_helpers import Reader, options
from vtcode.config.schema import AgentsSettings
from vtcode.protocol.events import ItemCompleted, Notice, ToolCallItem, TurnCompleted
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.subagent_wiring import DEPTH_REFUSAL
from vtcode.testing.script import RecordedRequest, Reply, ScriptToolCall, Step
from vtcode.testing.wire import server_for


def task(kind: str, brief: str, call_id: str = "t1", description: str = "look around") -> ScriptToolCall:
    """A scripted `task` call."""
    arguments = {"subagent_type": kind, "description": description, "prompt": brief}
    return ScriptToolCall("task", json.dumps(arguments), id=call_id)


def call(name: str, arguments: dict[str, Any], call_id: str) -> Reply:
    """A reply with one tool call."""
    return Reply(tool_calls=(ScriptToolCall(name, json.dumps(arguments), id=call_id),))


def texts(body: dict[str, Any]) -> str:
    """Everything a chat request says, as one string (system, messages, tool results)."""
    return json.dumps(body["messages"])


def tool_results(body: dict[str, Any]) -> dict[str, str]:
    """The tool results of a chat request by call id."""
    return {m["tool_call_id"]: str(m["content"]) for m in body["messages"] if m["role"] == "tool"}


async def run(
    workspace: Path, home: Path, steps: list[Step], prompt: str, **opts: Any
) -> tuple[Reader, list[dict[str, Any]]]:
    """One turn of a session whose model plays `steps`; the reader and the request bodies."""
    with server_for("chat", steps) as server:
        session = await Session.open(options(workspace, home, server, **opts))
        reader = Reader(session)
        await session.submit(UserInput(prompt))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        bodies = [r.json() for r in server.requests]
    return reader, bodies


async def test_the_childs_first_request_has_the_project_instructions_and_none_of_the_parents_messages(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "AGENTS.md").write_text("Project rule: MARKER-AGENTS-MD.\n")
    steps: list[Step] = [
        Reply(text="PARENT-THOUGHT", tool_calls=(task("explore", "BRIEF: find the loader"),)),
        Reply(text="CHILD-ANSWER: it is in loader.py"),
        Reply(text="done"),
    ]
    _, bodies = await run(workspace, tmp_path, steps, "PARENT-SECRET prompt")
    child = bodies[1]
    assert "PARENT-SECRET" not in json.dumps(child)
    assert "PARENT-THOUGHT" not in json.dumps(child)
    assert "BRIEF: find the loader" in texts(child)
    assert "MARKER-AGENTS-MD" in json.dumps(child)
    # The explore agent is read-only: those are all the tools its model is offered.
    assert sorted(t["function"]["name"] for t in child["tools"]) == ["grep_files", "list_files", "read_file"]
    assert "task" in [t["function"]["name"] for t in bodies[0]["tools"]]
    result = tool_results(bodies[2])["t1"]
    assert "CHILD-ANSWER: it is in loader.py" in result
    assert result.startswith("[subagent explore agent-")
    assert ": completed;" in result


async def test_the_child_is_asked_for_the_five_section_handoff(tmp_path: Path) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("explore", "find the loader"),)),
        Reply(text="## Summary\nfound it"),
        Reply(text="done"),
    ]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    system = bodies[1]["messages"][0]["content"]
    assert system.endswith(
        "Your final answer is all it receives: make it complete and self-contained, in these sections:\n\n"
        "## Summary\nWhat you did, and the answer to the brief.\n"
        "## Facts\nWhat you found, with file paths and line numbers.\n"
        "## Touched Files\nThe files you changed (or: none).\n"
        "## Verification\nWhat you checked and how; what you could not check.\n"
        "## Open Questions\nWhat is left to do or unclear (or: none)."
    )
    assert "## Facts" not in bodies[0]["messages"][0]["content"]


async def test_a_child_limited_to_read_file_cannot_run_exec_command(tmp_path: Path) -> None:
    agents = tmp_path / ".vtcode" / "agents"
    agents.mkdir(parents=True)
    (agents / "reader.md").write_text(
        "---\nname: reader\ndescription: reads files\ntools: read_file\n---\nYou read.\n"
    )
    victim = tmp_path / "victim.txt"
    steps: list[Step] = [
        Reply(tool_calls=(task("reader", "read notes"),)),
        call("exec_command", {"cmd": f"touch {victim}"}, "c1"),
        Reply(text="could not run it"),
        Reply(text="done"),
    ]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    assert [t["function"]["name"] for t in bodies[1]["tools"]] == ["read_file"]
    told = tool_results(bodies[2])["c1"]
    assert "unknown tool 'exec_command'" in told
    assert not victim.exists()


async def test_a_child_cannot_start_a_child(tmp_path: Path) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("general", "do it"),)),
        Reply(tool_calls=(task("explore", "go deeper", call_id="t2"),)),
        Reply(text="refused, so I did it myself"),
        Reply(text="done"),
    ]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    parent_tools = [t["function"]["name"] for t in bodies[0]["tools"]]
    child_tools = [t["function"]["name"] for t in bodies[1]["tools"]]
    assert {"task", "update_plan"} <= set(parent_tools)
    # Neither the depth-2 door nor the parent's plan: a child's steps would replace the parent's.
    assert "task" not in child_tools
    assert "update_plan" not in child_tools
    assert tool_results(bodies[2])["t2"].endswith(DEPTH_REFUSAL)
    assert "refused, so I did it myself" in tool_results(bodies[3])["t1"]


async def test_child_tokens_count_in_the_parents_turn_usage(tmp_path: Path) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("explore", "count"),), input_tokens=100, output_tokens=10),
        Reply(text="child", input_tokens=1000, output_tokens=200),
        Reply(text="done", input_tokens=300, output_tokens=30),
    ]
    reader, bodies = await run(tmp_path, tmp_path, steps, "go")
    usage = reader.of(TurnCompleted)[0].usage
    assert (usage.input_tokens, usage.output_tokens) == (1400, 240)
    assert "1200 tokens (1000 in, 200 out)" in tool_results(bodies[2])["t1"]


async def test_the_result_says_what_the_child_cost_at_list_prices(tmp_path: Path) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("explore", "count"),), input_tokens=100, output_tokens=10),
        Reply(text="child", input_tokens=1000, output_tokens=200),
        Reply(text="done", input_tokens=300, output_tokens=30),
    ]
    reader, bodies = await run(tmp_path, tmp_path, steps, "go")
    # gpt-4.1 at $2 per million tokens in and $8 out: 1000 in and 200 out cost $0.0036.
    head = tool_results(bodies[2])["t1"].splitlines()[0]
    assert "; 1200 tokens (1000 in, 200 out), $0.0036; 0 tool calls; " in head
    (item,) = [
        e.item for e in reader.of(ItemCompleted) if isinstance(e.item, ToolCallItem) and e.item.name == "task"
    ]
    assert item.details is not None
    assert item.details["cost_usd"] == pytest.approx(0.0036)


async def test_the_task_tool_says_its_limits_before_a_child_is_started(tmp_path: Path) -> None:
    agents = tmp_path / ".vtcode" / "agents"
    agents.mkdir(parents=True)
    (agents / "digger.md").write_text("---\nname: digger\ndescription: digs\nmaxTurns: 3\n---\nDig.\n")
    with server_for("chat", [Reply(text="hi")]) as server:
        opts = options(tmp_path, tmp_path, server)
        limited = msgspec.structs.replace(opts.settings, agents=AgentsSettings(max_concurrent=2))
        session = await Session.open(dataclasses.replace(opts, settings=limited))
        reader = Reader(session)
        await session.submit(UserInput("go"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        body = server.requests[0].json()
    described = next(t for t in body["tools"] if t["function"]["name"] == "task")["function"]["description"]
    assert (
        "At most 2 subagents run at once (further calls wait for a slot), and a subagent cannot start "
        in (described)
    )
    assert "\n- digger: digs (stops after 3 model requests)\n" in described


async def _fan_out(tmp_path: Path, max_concurrent: int) -> tuple[int, list[dict[str, Any]]]:
    """Three `task` calls in one reply, each child's request held 1 s by the server: how many of the
    children's requests the server held at once at most, and the tool results of the last request."""
    lock = threading.Lock()
    state = {"running": 0, "most": 0}

    def respond(request: RecordedRequest) -> Step:
        said = texts(request.json())
        if "CHILD-" not in said:
            return Reply(text="all three answered")
        name = next(n for n in ("CHILD-A", "CHILD-B", "CHILD-C") if n in said)
        with lock:
            state["running"] += 1
            state["most"] = max(state["most"], state["running"])
        time.sleep(1.0)
        with lock:
            state["running"] -= 1
        return Reply(text=f"answer of {name}")

    first = Reply(
        tool_calls=(
            task("explore", "CHILD-A brief", "a"),
            task("explore", "CHILD-B brief", "b"),
            task("explore", "CHILD-C brief", "c"),
        )
    )
    with server_for("chat", [first]) as server:
        server.responder = respond
        opts = options(tmp_path, tmp_path, server)
        limited = msgspec.structs.replace(opts.settings, agents=AgentsSettings(max_concurrent=max_concurrent))
        session = await Session.open(dataclasses.replace(opts, settings=limited))
        reader = Reader(session)
        await session.submit(UserInput("fan out"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
        last = server.requests[-1].json()
    return state["most"], [m for m in last["messages"] if m["role"] == "tool"]


async def test_three_children_in_one_reply_run_at_once_and_answer_in_call_order(tmp_path: Path) -> None:
    most, results = await _fan_out(tmp_path, 4)
    # The server saw the children's requests overlap: they ran at once, not one after another.
    assert most >= 2
    assert [m["tool_call_id"] for m in results] == ["a", "b", "c"]
    assert [f"answer of CHILD-{x}" in str(m["content"]) for m, x in zip(results, "ABC", strict=True)] == [
        True,
        True,
        True,
    ]


async def test_max_concurrent_limits_how_many_children_run_at_once(tmp_path: Path) -> None:
    most, results = await _fan_out(tmp_path, 1)
    assert most == 1
    assert [m["tool_call_id"] for m in results] == ["a", "b", "c"]


async def test_definition_problems_are_reported_with_their_file_and_the_rest_still_load(
    tmp_path: Path,
) -> None:
    agents = tmp_path / ".vtcode" / "agents"
    agents.mkdir(parents=True)
    (agents / "broken.md").write_text("---\nname: [unclosed\n  - x: y\n---\nbody\n")
    (agents / "badmodel.md").write_text("---\nname: badmodel\ndescription: d\nmodel: gpt-9000-nope\n---\n")
    (agents / "typo.md").write_text("---\nname: typo\ndescription: d\ntools: read_file, reed_file\n---\n")
    (agents / "good.md").write_text("---\nname: good\ndescription: a good agent\n---\nGood.\n")
    reader, bodies = await run(tmp_path, tmp_path, [Reply(text="hi")], "go")
    notices = [n.message for n in reader.of(Notice) if n.message.startswith("agents:")]
    assert any(str(agents / "broken.md") in n and "skipped" in n for n in notices)
    assert any(str(agents / "badmodel.md") in n and "gpt-9000-nope" in n for n in notices)
    assert any(str(agents / "typo.md") in n and "reed_file" in n for n in notices)
    task_spec = next(t for t in bodies[0]["tools"] if t["function"]["name"] == "task")
    offered = task_spec["function"]["parameters"]["properties"]["subagent_type"]["enum"]
    assert sorted(offered) == ["explore", "general", "good", "typo"]


async def test_the_result_names_the_files_the_child_changed_and_its_tool_calls(tmp_path: Path) -> None:
    steps: list[Step] = [
        Reply(tool_calls=(task("general", "write the notes"),)),
        call("write_file", {"path": "notes.txt", "content": "hello\n"}, "w1"),
        Reply(text="wrote notes.txt"),
        Reply(text="done"),
    ]
    _, bodies = await run(tmp_path, tmp_path, steps, "go")
    assert (tmp_path / "notes.txt").read_text() == "hello\n"
    head = tool_results(bodies[3])["t1"].splitlines()[0]
    assert head.startswith("[subagent general agent-")
    assert "; 1 tool calls; " in head
    assert head.endswith(" ms; files changed: notes.txt]")
