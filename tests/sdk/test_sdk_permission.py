"""The permission order: deny rules, sandbox and approval mode first, then the callback, then `approve()`."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import vtcode.sdk as vt
from tests.sdk.sdk_helpers import sdk_options, tool_results
from tests.sdk.transport_params import in_process_each_and_one_subprocess
from vtcode.sdk.transport import TransportName
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


def _command(cmd: str, call_id: str) -> Reply:
    arguments = json.dumps({"cmd": cmd, "yield_time_ms": 5000})
    return Reply(tool_calls=(ScriptToolCall("exec_command", arguments, id=call_id),))


class Recorder:
    """A permission callback that allows commands writing `allowed.txt` and denies the rest.

    With `rewrite`, it allows with that command line in place of the one asked about.
    """

    def __init__(self, rewrite: str | None = None) -> None:
        self.asked: list[vt.ApprovalRequest] = []
        self.rewrite = rewrite

    async def __call__(self, request: vt.ApprovalRequest) -> vt.Decision:
        self.asked.append(request)
        if "allowed.txt" in request.display:
            if self.rewrite is None:
                return vt.Allow()
            return vt.Allow(updated_args={**json.loads(request.arguments), "cmd": self.rewrite})
        return vt.Deny("no writes to denied.txt")


async def _drain(turn: vt.TurnHandle[Any]) -> list[vt.Event]:
    return [event async for event in turn.events()]


def _shadowed(events: list[vt.Event]) -> list[tuple[str, str, str, str]]:
    return [(e.source, e.rule, e.tool, e.action) for e in events if isinstance(e, vt.PolicyShadowed)]


async def _stored_events(session_id: str, opts: vt.Options) -> list[vt.Event]:
    """The events the session recorded, read back through an in-process resume (what `run()` does not
    hand out), whichever transport recorded them."""
    async with await vt.Session.resume(
        session_id, dataclasses.replace(opts, transport="in-process")
    ) as again:
        return again.runtime.past_events()


@in_process_each_and_one_subprocess("drive", ["events", "run"])
async def test_the_permission_callback_decides_what_the_approval_mode_leaves_open(
    tmp_path: Path, drive: str, transport: TransportName
) -> None:
    script = [
        _command("echo yes > allowed.txt", "c1"),
        _command("echo no > denied.txt", "c2"),
        _command("echo rule > ruled.txt", "c3"),
        _command("echo rule again > ruled.txt", "c4"),
        _command("touch touched.txt", "c5"),
        _command("touch touched-again.txt", "c6"),
        Reply(text="done"),
    ]
    policy = Recorder(rewrite="echo rewritten > allowed.txt")
    opts = sdk_options(
        tmp_path, server := server_for("chat", script), approval="ask", permission=policy,
        config=('approvals.deny=["echo rule"]', 'approvals.allow=["touch"]'), transport=transport,
    )  # fmt: skip
    with server:
        async with await vt.Session.open(opts) as s:
            if drive == "run":
                result = await s.run("write files")
            else:
                turn = await s.start("write files")
                events = await _drain(turn)
                result = await turn.result()
                # The callback answered: no request was left for the program to approve.
                assert not [e for e in events if isinstance(e, vt.ApprovalRequested)]
        if drive == "run":
            events = await _stored_events(s.id, opts)
        bodies = [r.json() for r in server.requests]
    # The callback's `updated_args` ran instead of the model's arguments, which it was shown.
    assert (tmp_path / "allowed.txt").read_text() == "rewritten\n"
    assert json.loads(policy.asked[0].arguments) == {"cmd": "echo yes > allowed.txt", "yield_time_ms": 5000}
    # The denied command never ran.
    assert not (tmp_path / "denied.txt").exists()
    assert not (tmp_path / "ruled.txt").exists()
    # The allow rule ran its commands without the callback.
    assert (tmp_path / "touched.txt").exists()
    assert (tmp_path / "touched-again.txt").exists()
    # Asked once per call the rules left open; the rules settled the other four before the callback.
    assert [r.display for r in policy.asked] == ["echo yes > allowed.txt", "echo no > denied.txt"]
    assert "no writes to denied.txt" in tool_results(bodies[2], "chat")[-1]
    assert "echo rule" in tool_results(bodies[3], "chat")[-1]
    # Each rule that bypassed the callback is reported once, however many calls it settled.
    assert _shadowed(events) == [
        ("deny_rule", "echo rule", "exec_command", "deny"),
        ("allow_rule", "touch", "exec_command", "allow"),
    ]
    assert result.status == "completed"


async def test_arguments_a_callback_substitutes_still_meet_the_deny_rules(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_command("echo yes > allowed.txt", "c1"), Reply(text="done")]
    policy = Recorder(rewrite="echo rule > allowed.txt")
    with server_for("chat", script) as server:
        opts = sdk_options(
            tmp_path,
            server,
            approval="ask",
            permission=policy,
            config=('approvals.deny=["echo rule"]',),
            transport=transport,
        )
        async with await vt.Session.open(opts) as s:
            result = await s.run("write")
        second = server.requests[1].json()
    assert not (tmp_path / "allowed.txt").exists()
    refusal = tool_results(second, "chat")[-1]
    assert "the arguments the approval substituted are refused" in refusal
    assert "echo rule" in refusal
    assert result.status == "completed"


async def test_arguments_a_callback_substitutes_must_fit_the_tool(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_command("echo yes > allowed.txt", "c1"), Reply(text="done")]

    def policy(request: vt.ApprovalRequest) -> vt.Decision:
        return vt.Allow(updated_args={"command": "echo wrong key > allowed.txt"})

    with server_for("chat", script) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, approval="ask", permission=policy, transport=transport)
        ) as s:
            await s.run("write")
        second = server.requests[1].json()
    assert not (tmp_path / "allowed.txt").exists()
    assert "into ones it does not accept" in tool_results(second, "chat")[-1]


async def test_full_auto_runs_commands_without_consulting_the_callback(
    tmp_path: Path, transport: TransportName
) -> None:
    policy = Recorder()
    script = [
        _command("echo auto > auto.txt", "c1"),
        _command("echo more > more.txt", "c2"),
        Reply(text="done"),
    ]
    with server_for("chat", script) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, permission=policy, transport=transport)
        ) as s:
            turn = await s.start("write")
            events = await _drain(turn)
    assert (tmp_path / "auto.txt").read_text() == "auto\n"
    assert (tmp_path / "more.txt").read_text() == "more\n"
    assert policy.asked == []
    # The program learns, once, that its callback is bypassed by the mode.
    assert _shadowed(events) == [("approval_mode", "full-auto", "exec_command", "allow")]


async def test_without_a_callback_nothing_is_reported_as_shadowed(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_command("echo rule > ruled.txt", "c1"), Reply(text="done")]
    with server_for("chat", script) as server:
        opts = sdk_options(tmp_path, server, config=('approvals.deny=["echo rule"]',), transport=transport)
        async with await vt.Session.open(opts) as s:
            events = await _drain(await s.start("write"))
    assert not (tmp_path / "ruled.txt").exists()
    assert _shadowed(events) == []


async def test_without_a_callback_events_carry_the_request_and_approve_answers_it(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_command("echo ok > approved.txt", "c1"), Reply(text="done")]
    with server_for("chat", script) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, approval="ask", transport=transport)
        ) as s:
            turn = await s.start("write")
            seen: list[str] = []
            async for event in turn.events():
                seen.append(type(event).__name__)
                if isinstance(event, vt.ApprovalRequested):
                    assert (event.tool, event.display) == ("exec_command", "echo ok > approved.txt")
                    await turn.approve(event.request_id, vt.Allow())
            result = await turn.result()
    assert (tmp_path / "approved.txt").read_text() == "ok\n"
    assert result.status == "completed"
    # The same sequence `vtcode exec --json` prints (live command output updates and the checkpoint's
    # notice of the files the command changed aside).
    assert [name for name in seen if name not in ("ItemUpdated", "Notice")] == [
        "ThreadStarted",
        "TurnStarted",
        "ItemStarted",
        "ApprovalRequested",
        "ApprovalResolved",
        "ItemCompleted",
        "ItemStarted",
        "ItemDelta",
        "ItemCompleted",
        "TurnCompleted",
    ]


async def test_run_without_a_callback_refuses_what_nobody_can_approve(
    tmp_path: Path, transport: TransportName
) -> None:
    script = [_command("echo no > unasked.txt", "c1"), Reply(text="done")]
    with server_for("chat", script) as server:
        async with await vt.Session.open(
            sdk_options(tmp_path, server, approval="ask", transport=transport)
        ) as s:
            result = await s.run("write")
        second = server.requests[1].json()
    assert not (tmp_path / "unasked.txt").exists()
    assert "nobody can approve this call" in tool_results(second, "chat")[-1]
    assert result.status == "completed"


async def test_a_callback_that_raises_denies_the_call(tmp_path: Path, transport: TransportName) -> None:
    def broken(request: vt.ApprovalRequest) -> vt.Decision:
        raise ValueError("policy store down")

    script = [_command("echo no > broken.txt", "c1"), Reply(text="done")]
    with server_for("chat", script) as server:
        opts = sdk_options(tmp_path, server, approval="ask", permission=broken, transport=transport)
        async with await vt.Session.open(opts) as s:
            await s.run("write")
        second = server.requests[1].json()
    assert not (tmp_path / "broken.txt").exists()
    assert "the permission callback failed: ValueError: policy store down" in tool_results(second, "chat")[-1]


async def test_a_function_tool_needing_approval_goes_to_the_callback(
    tmp_path: Path, transport: TransportName
) -> None:
    ran: list[str] = []

    @vt.tool(needs_approval=True)
    def deploy(target: str) -> str:
        """Deploy."""
        ran.append(target)
        return "deployed"

    @vt.tool
    def status(target: str) -> str:
        """Status, registered by the program: runs without asking."""
        ran.append(f"status {target}")
        return "green"

    policy = Recorder()
    calls = (
        ScriptToolCall("status", json.dumps({"target": "prod"}), id="c1"),
        ScriptToolCall("deploy", json.dumps({"target": "prod"}), id="c2"),
    )
    with server_for("chat", [Reply(tool_calls=calls), Reply(text="done")]) as server:
        opts = sdk_options(
            tmp_path, server, approval="ask", permission=policy, tools=[deploy, status], transport=transport
        )
        async with await vt.Session.open(opts) as s:
            await s.run("deploy")
    assert ran == ["status prod"]
    assert [r.tool for r in policy.asked] == ["deploy"]
