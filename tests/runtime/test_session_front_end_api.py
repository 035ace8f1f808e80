"""What a front end reads from and asks of a session besides operations: pending input it can take back,
status and thresholds, command sessions (jobs), model/profile switches, path completion, stored sessions."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest

from tests.runtime.session_helpers import Reader, conversation, options
from vtcode.config.schema import ContextSettings, HarnessSettings
from vtcode.core.compaction.thresholds import thresholds as core_thresholds
from vtcode.protocol.errors import ConfigError
from vtcode.protocol.events import ItemDelta, Notice, TurnCompleted
from vtcode.protocol.messages import Usage, UserMessage
from vtcode.protocol.ops import UserInput
from vtcode.runtime.session import Session
from vtcode.runtime.workspace_index import complete_path, stored_sessions
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import server_for


def _slow() -> Reply:
    return Reply(text="slow " * 40, chunk_size=4, delay_between=0.02)


async def test_withdrawn_input_is_never_delivered_and_the_rest_keeps_its_order(tmp_path: Path) -> None:
    with server_for("chat", [_slow(), Reply(text="b done")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("first"))
        await reader.wait_for(ItemDelta)
        await session.submit(UserInput("a", intent_id="id-a"))
        await session.submit(UserInput("b", mode="steer", intent_id="id-b"))
        assert await session.withdraw("id-a") == UserInput(text="a", mode="queue", intent_id="id-a")
        assert await session.withdraw("id-a") is None
        assert await session.withdraw("never-queued") is None
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_2")
        await reader.close()
    users = [m.content for m in conversation(session.messages) if isinstance(m, UserMessage)]
    assert users == ["first", "b"]


async def test_status_shows_the_thresholds_the_compactor_decides_with(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        opts = options(tmp_path, tmp_path, server)
        settings = msgspec.structs.replace(opts.settings, context=ContextSettings(max_context_tokens=30_000))
        session = await Session.open(dataclasses.replace(opts, settings=settings))
        shown = session.status().thresholds
        await session.aclose()
    # gpt-4.1's window is far larger, so the session budget decides: hard 27,000, soft 24,300.
    assert shown == core_thresholds(1_047_576, 30_000, None)
    assert (shown.hard, shown.soft) == (27_000, 24_300)


async def test_status_reports_model_usage_pressure_jobs_and_pending(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="hi", input_tokens=14_400, output_tokens=7)]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        before = session.status()
        await session.submit(UserInput("hello"))
        await reader.wait_for(TurnCompleted)
        after = session.status()
        await reader.close()
    assert (before.provider, before.model, before.profile, before.context_tokens) == (
        "openai",
        "gpt-4.1",
        "default",
        0,
    )
    assert after.usage == Usage(input_tokens=14_400, output_tokens=7)
    assert after.context_tokens == 14_400
    assert after.pressure == pytest.approx(0.1)
    assert (after.running_jobs, after.pending_intents) == (0, 0)
    # gpt-4.1 list prices: $2 per million input tokens, $8 per million output tokens.
    assert after.cost == pytest.approx((14_400 * 2 + 7 * 8) / 1e6)
    assert not session.status().running


async def test_jobs_list_read_wait_and_kill_command_sessions(tmp_path: Path) -> None:
    calls = (
        ScriptToolCall("exec_command", json.dumps({"cmd": "echo quick", "yield_time_ms": 5000}), id="c1"),
        ScriptToolCall(
            "exec_command", json.dumps({"cmd": "echo slow; sleep 60", "yield_time_ms": 300}), id="c2"
        ),
    )
    with server_for("chat", [Reply(tool_calls=calls), Reply(text="ok")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("run"))
        await reader.wait_for(TurnCompleted)
        jobs = session.jobs
        listed = jobs.list()
        assert [(j.command, j.running) for j in listed] == [("echo slow; sleep 60", True)]
        job = listed[0]
        assert "slow" in jobs.output(job.id)
        waited = await jobs.wait(job.id, 0.2)
        assert waited.running
        killed = await jobs.kill(job.id)
        assert not killed.running
        assert killed.exit_code is not None
        assert jobs.running == 0
        with pytest.raises(Exception, match="not found"):
            jobs.output("run-nope")
        await reader.close()


async def test_a_model_switch_applies_from_the_next_turn_and_is_announced(tmp_path: Path) -> None:
    with server_for("chat", [_slow(), Reply(text="second")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("first"))
        await reader.wait_for(ItemDelta)
        session.switch(model="gpt-4o", profile="minimal")
        # The running turn keeps its model.
        assert session.model == "gpt-4.1"
        await reader.wait_for(TurnCompleted)
        await reader.wait_for(Notice, lambda e: "gpt-4o" in e.message)
        assert session.status().profile == "minimal"
        await session.submit(UserInput("second"))
        await reader.wait_for(TurnCompleted, lambda e: e.turn_id == "turn_2")
        notices = [n.message for n in reader.of(Notice)]
        await reader.close()
        bodies = [r.json() for r in server.requests]
    assert [b["model"] for b in bodies] == ["gpt-4.1", "gpt-4o"]
    assert bodies[0]["messages"][0]["content"] != bodies[1]["messages"][0]["content"]
    assert any("prompt cache starts over once" in n for n in notices)
    assert any("prompt profile: minimal" in n for n in notices)
    # compact_on_model_switch (on by default) asks for a compaction (too short to need one here).
    assert any("nothing to compact" in n for n in notices)


async def test_a_switch_can_leave_compaction_alone_and_rejects_unknown_profiles(tmp_path: Path) -> None:
    with server_for("chat", []) as server:
        base = options(tmp_path, tmp_path, server)
        harness = HarnessSettings(compact_on_model_switch=False)
        settings = msgspec.structs.replace(
            base.settings, agent=msgspec.structs.replace(base.settings.agent, harness=harness)
        )
        session = await Session.open(replace(base, settings=settings))
        reader = Reader(session)
        with pytest.raises(ConfigError, match="unknown prompt profile"):
            session.switch(profile="nonsense")
        session.switch(model="gpt-4o")
        await reader.close()
    notices = [n.message for n in reader.of(Notice)]
    assert session.model == "gpt-4o"
    assert not any("compact" in n for n in notices)


def test_path_completion_lists_one_folder_of_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "mod.py").write_text("")
    (tmp_path / "src" / "main.py").write_text("")
    (tmp_path / ".hidden").write_text("")
    (tmp_path / "node_modules").mkdir()
    assert complete_path(tmp_path, "") == ["src/"]
    assert complete_path(tmp_path, "src/") == ["src/main.py", "src/pkg/"]
    assert complete_path(tmp_path, "src/p") == ["src/pkg/"]
    assert complete_path(tmp_path, ".h") == [".hidden"]
    assert complete_path(tmp_path, "../") == []
    assert complete_path(tmp_path, "nope/") == []


async def test_stored_sessions_lists_what_resume_offers(tmp_path: Path) -> None:
    with server_for("chat", [Reply(text="stored")]) as server:
        session = await Session.open(options(tmp_path, tmp_path, server))
        reader = Reader(session)
        await session.submit(UserInput("keep this"))
        await reader.wait_for(TurnCompleted)
        await reader.close()
    listed = stored_sessions(tmp_path / ".vtcode")
    assert [(s.id, s.title) for s in listed] == [(session.id, "keep this")]
