"""The turn loop in-process with the scripted model: results per call, parallel reads, cancellation."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from vtcode.core.approvals import ApprovalPolicy
from vtcode.exec.manager import SessionManager
from vtcode.protocol.errors import AgentFailedError
from vtcode.protocol.events import Event
from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage, UserMessage
from vtcode.protocol.model import SystemPrompt
from vtcode.runtime.emitter import Emitter
from vtcode.runtime.tool_dispatch import INTERRUPTED, ToolDispatcher
from vtcode.runtime.turn import ConversationState, TurnRunner
from vtcode.testing.clock import FakeClock
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.scripted_model import ScriptedModel
from vtcode.tools.base import ToolContext
from vtcode.tools.exec_command import ExecCommandTool
from vtcode.tools.registry import workspace_tools


def _runner(
    ws: Path, model: ScriptedModel, mode: str = "full-auto", max_requests: int = 10
) -> tuple[TurnRunner, list[list[Message]], list[Event]]:
    checkpoints: list[list[Message]] = []
    seen: list[Event] = []
    emitter = Emitter([seen.append])
    tools = [*workspace_tools(), ExecCommandTool(SessionManager(ws, {}))]
    dispatcher = ToolDispatcher(
        tools=tools,
        context=ToolContext(workspace=ws),
        policy=ApprovalPolicy(mode=mode, headless=True),  # type: ignore[arg-type]
        emitter=emitter,
    )

    class Checkpoints:
        def append(self, messages: Sequence[Message], turn: int) -> None:
            checkpoints.append(list(messages))

        def replace(
            self, messages: Sequence[Message], summary: str, artifact_path: str | None = None
        ) -> None:
            raise AssertionError("no compaction here")

    runner = TurnRunner(
        model_client=model,
        model="scripted",
        system=lambda: SystemPrompt("static"),
        tools=[t.spec for t in tools],
        dispatcher=dispatcher,
        emitter=emitter,
        state=ConversationState(messages=[]),
        history=Checkpoints(),
        clock=FakeClock(),
        max_requests=max_requests,
        context_window=100_000,
    )
    return runner, checkpoints, seen


def _calls(*calls: tuple[str, dict[str, object]]) -> Reply:
    return Reply(
        tool_calls=tuple(ScriptToolCall(n, json.dumps(a), id=f"c{i}") for i, (n, a) in enumerate(calls))
    )


async def test_every_call_gets_exactly_one_result_in_order(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("A\n")
    model = ScriptedModel(
        [
            _calls(
                ("read_file", {"path": "a.txt"}),
                ("nope", {}),
                ("read_file", {"path": "missing"}),
                ("list_files", {}),
            ),
            Reply(text="done"),
        ]
    )
    runner, checkpoints, _ = _runner(tmp_path, model)
    outcome = await runner.run("go")
    assert outcome.final_text == "done"
    results = checkpoints[2]
    assert [type(m) for m in checkpoints[0] + checkpoints[1]] == [UserMessage, AssistantMessage]
    assert [(r.call_id, r.is_error) for r in results if isinstance(r, ToolResultMessage)] == [
        ("c0", False),
        ("c1", True),
        ("c2", True),
        ("c3", False),
    ]
    assert "unknown tool 'nope'" in results[1].content
    # The model saw the whole history in the second request.
    assert len(model.requests[1].messages) == 3 + 4 - 1


async def test_invalid_json_arguments_are_a_tool_error_not_a_crash(tmp_path: Path) -> None:
    bad = Reply(tool_calls=(ScriptToolCall("read_file", "{not json", id="x"),))
    runner, checkpoints, _ = _runner(tmp_path, ScriptedModel([bad, Reply(text="ok")]))
    await runner.run("go")
    result = checkpoints[2][0]
    assert isinstance(result, ToolResultMessage)
    assert result.is_error
    assert "invalid JSON arguments" in result.content


async def test_read_only_calls_run_in_parallel(tmp_path: Path) -> None:
    # Two slow greps: run together they overlap. Parallelism is observed through the event order:
    # both items start before either completes.
    (tmp_path / "f.txt").write_text("needle\n")
    model = ScriptedModel(
        [_calls(("grep_files", {"pattern": "needle"}), ("grep_files", {"pattern": "x"})), Reply(text="ok")]
    )
    runner, _, seen = _runner(tmp_path, model)
    await runner.run("go")
    kinds = [type(e).__name__ for e in seen if type(e).__name__.startswith("Item")]
    tool_events = [k for k in kinds if k in ("ItemStarted", "ItemCompleted")][:4]
    assert tool_events == ["ItemStarted", "ItemStarted", "ItemCompleted", "ItemCompleted"]


async def test_max_requests_is_a_clear_failure(tmp_path: Path) -> None:
    model = ScriptedModel([_calls(("list_files", {}))] * 3)
    runner, _, _ = _runner(tmp_path, model, max_requests=2)
    with pytest.raises(AgentFailedError, match="stopped after 2 model requests"):
        await runner.run("go")


async def test_cancel_during_a_command_commits_an_interrupted_result(tmp_path: Path) -> None:
    model = ScriptedModel([_calls(("exec_command", {"cmd": "sleep 30"}), ("read_file", {"path": "x"}))])
    runner, checkpoints, _ = _runner(tmp_path, model)
    task = asyncio.create_task(runner.run("go"))
    await asyncio.sleep(0.5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    results = checkpoints[-1]
    assert [(r.call_id, r.content, r.is_error) for r in results if isinstance(r, ToolResultMessage)] == [
        ("c0", INTERRUPTED, True),
        ("c1", INTERRUPTED, True),
    ]


async def test_refused_command_reason_reaches_the_model(tmp_path: Path) -> None:
    model = ScriptedModel([_calls(("exec_command", {"cmd": "touch x"})), Reply(text="ok")])
    runner, checkpoints, _ = _runner(tmp_path, model, mode="auto-edit")
    await runner.run("go")
    result = checkpoints[2][0]
    assert isinstance(result, ToolResultMessage)
    assert result.is_error
    assert result.content.startswith("not run:")
    assert not (tmp_path / "x").exists()


async def test_a_failing_event_sink_still_leaves_one_result_per_call(tmp_path: Path) -> None:
    model = ScriptedModel([_calls(("list_files", {}), ("read_file", {"path": "x"}))])
    runner, checkpoints, _ = _runner(tmp_path, model)

    def broken(event: Event) -> None:
        if type(event).__name__ == "ItemCompleted":
            raise OSError("disk full")

    runner.emitter.subscribe(broken)
    with pytest.raises(OSError, match="disk full"):
        await runner.run("go")
    results = [m for m in checkpoints[-1] if isinstance(m, ToolResultMessage)]
    assert [(r.call_id, r.is_error) for r in results] == [("c0", True), ("c1", True)]
    assert all(r.content == "not run: disk full" for r in results)
