"""A conversation rewound past a compaction keeps what the compaction archived (`recall_history`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.checkpoints.rewind_helpers import rewind
from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from tests.runtime.compaction_agent import Agent, is_summary_request, write_files
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env

RECALL = ScriptToolCall("recall_history", json.dumps({"query": "alpha0"}), id="r1")


def _exec(vtcode: VtcodeRunner, ws: Path, server: OpenAIChatServer, prompt: str, *extra: str) -> list[Any]:
    done = vtcode.run(
        "exec", "--json", "--approval", "full-auto", *cli_args("chat"),
        "-c", "context.max_context_tokens=30000", *extra, prompt,
        cwd=ws, env=cli_env("chat", server),
    )  # fmt: skip
    assert done.code == 0, done.stderr
    return events(done.stdout)


def test_a_branch_forked_after_a_compaction_can_recall_the_archived_messages(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    agent = Agent(write_files(ws, 12, 150), special={"recall it": RECALL})
    with OpenAIChatServer(responder=agent) as server:
        session = str(_exec(vtcode, ws, server, "task 0: read the files")[0]["thread_id"])
        turns, compacted = 1, False
        while not compacted:
            assert turns < 12, "the session never compacted"
            found = _exec(vtcode, ws, server, f"task {turns}: read the next files", "--resume", session)
            compacted = any(e["type"] == "thread.compacted" for e in found)
            turns += 1
        _exec(vtcode, ws, server, "one more turn", "--resume", session)
        done = rewind(
            vtcode, ws, "--session", session, "--to", str(turns + 1), "--conversation", "--yes", "--json"
        )
        assert done.code == 0, done.stderr
        fork = json.loads(done.stdout)["fork"]
        start = len(server.requests)
        _exec(vtcode, ws, server, "recall it", "--resume", fork)
        bodies = [json.loads(r.body) for r in server.requests[start:]]
    answered = [b for b in bodies if not is_summary_request(b)][-1]
    result = next(m for m in answered["messages"] if m.get("tool_call_id") == "r1")
    assert "nothing is archived" not in result["content"], result["content"]
    assert "alpha0" in result["content"], "turn 1's read, archived by the compaction, is found on the branch"
