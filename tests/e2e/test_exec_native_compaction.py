"""`vtcode exec` on the Anthropic wire: automatic compaction by the provider's compaction edit.

Each run is one turn of the same session (`--resume`); the prompts are large, so a later request
crosses the thresholds of a 60,000-token budget and the compaction is asked of the provider.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from tests.e2e.harness import events
from vtcode.core.compaction.summary import SUMMARY_PREFIX
from vtcode.testing.anthropic_server import AnthropicServer
from vtcode.testing.script import RecordedRequest, Reply, Step
from vtcode.testing.wire import cli_args, cli_env

SUMMARY = "The user sent four large notes; nothing is pending."


def _note(n: int) -> str:
    # About 8,000 tokens: the seventh request crosses the hard threshold (54,000) with enough
    # messages in the history for an automatic compaction.
    return f"note {n}: " + " ".join(f"n{n}w{i} detail" for i in range(1_400))


def _answer(request: RecordedRequest) -> Step:
    """A compaction pause to a request that carries the edit, an ordinary answer otherwise."""
    if "context_management" in request.json():
        return Reply(compaction=SUMMARY)
    return Reply(text="noted")


def _exec(vtcode: VtcodeRunner, ws: Path, server: AnthropicServer, prompt: str, *extra: str) -> Any:
    result = vtcode.run(
        "exec",
        "--json",
        *cli_args("anthropic"),
        "-c",
        "context.max_context_tokens=60000",
        *extra,
        prompt,
        cwd=ws,
        env=cli_env("anthropic", server),
    )
    assert result.code == 0, result.stderr
    assert "Traceback" not in result.stderr
    return events(result.stdout)


def test_exec_compacts_through_the_anthropic_compaction_edit(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    compacted: list[dict[str, Any]] = []
    with AnthropicServer(responder=_answer) as server:
        first = _exec(vtcode, ws, server, _note(0))
        session = str(first[0]["thread_id"])
        for n in range(1, 8):
            run = _exec(vtcode, ws, server, _note(n), "--resume", session)
            compacted += [e for e in run if e["type"] == "thread.compacted"]
            assert run[-3]["type"] == "turn.completed"
        bodies = [r.json() for r in server.requests]
    assert compacted
    event = compacted[0]
    assert (event["trigger"], event["mode"]) == ("auto", "native")
    assert event["before_tokens"] > event["after_tokens"]
    edits = [b for b in bodies if "context_management" in b]
    assert edits[0]["context_management"]["edits"][0]["trigger"] == {"type": "input_tokens", "value": 50_000}
    after = bodies[bodies.index(edits[0]) + 1]
    assert SUMMARY_PREFIX + SUMMARY in json.dumps(after["messages"], ensure_ascii=False).replace("\\n", "\n")
