"""`vtcode exec` with `-c context.max_context_tokens=30000`: a resumed session compacts, and says so.

The loopback model reads files for every prompt; each run is one turn of the same session (`--resume`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.runtime.compaction_agent import Agent, write_files
from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.wire import cli_args, cli_env


def _exec(
    vtcode: VtcodeRunner, ws: Path, server: OpenAIChatServer, prompt: str, *extra: str
) -> list[dict[str, Any]]:
    result = vtcode.run(
        "exec",
        "--json",
        "--approval",
        "full-auto",
        *cli_args("chat"),
        "-c",
        "context.max_context_tokens=30000",
        *extra,
        prompt,
        cwd=ws,
        env=cli_env("chat", server),
    )
    assert result.code == 0, result.stderr
    assert "Traceback" not in result.stderr
    return events(result.stdout)


def test_a_resumed_exec_session_compacts_and_sessions_show_lists_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150))
    compacted: list[dict[str, Any]] = []
    with OpenAIChatServer(responder=agent) as server:
        first = _exec(vtcode, ws, server, "never touch migrations/; read the files")
        session = str(first[0]["thread_id"])
        for n in range(1, 7):
            evts = _exec(vtcode, ws, server, f"task {n}: read the next files", "--resume", session)
            compacted += [e for e in evts if e["type"] == "thread.compacted"]
            assert evts[-3]["type"] == "turn.completed"
    assert compacted
    event = compacted[0]
    assert event["trigger"] == "auto"
    assert event["reason"] in ("soft", "hard")
    assert event["mode"] == "local"
    assert event["before_tokens"] > event["after_tokens"]
    assert event["artifact_path"] == "archive/compaction-0001.jsonl"
    after = [
        b
        for b in agent.bodies("main")
        if any(str(m.get("content", "")).startswith(SUMMARY_PREFIX) for m in b["messages"])
    ]
    assert after
    assert "never touch migrations/" in json.dumps(after[-1])

    shown = vtcode.run("sessions", "show", session)
    assert shown.code == 0, shown.stderr
    assert f"compactions ({len(compacted)}):" in shown.stdout
    line = next(row for row in shown.stdout.splitlines() if "archive/compaction-0001.jsonl" in row)
    assert "auto" in line
    assert f"{event['before_tokens']:,} -> " in line
    listed = json.loads(vtcode.run("sessions", "show", session, "--json").stdout)
    first_listed = listed["compactions"][0]
    assert first_listed["artifact_path"] == "archive/compaction-0001.jsonl"
    assert first_listed["trigger"] == "auto"
    assert first_listed["tokens_before"] == event["before_tokens"]
