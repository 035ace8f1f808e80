"""Provider-native compaction: OpenAI's `/responses/compact` output normalized by the tail rules (5.3-5.5).

A Responses session of three large turns is compacted with `/compact`; the loopback server answers the
compaction request with a JSON reply, as the endpoint does.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.runtime.compaction_agent import GOOD_SUMMARY, wait_turn_end
from tests.runtime.session_helpers import Reader, options
from vtcode.core.compaction.retention import RETAINED_HEADER
from vtcode.protocol.events import ThreadCompacted, TurnCompleted, TurnFailed
from vtcode.protocol.messages import AssistantMessage
from vtcode.protocol.ops import Compact, UserInput
from vtcode.runtime.session import Session
from vtcode.testing.openai_responses_server import OpenAIResponsesServer
from vtcode.testing.script import HttpError, JsonReply, Reply, Step

OPAQUE = {"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAAA-opaque"}


def _big(label: str) -> str:
    return f"{label}: " + " ".join(f"{label.lower()}{i} detail" for i in range(1_600))


PROMPTS = [_big("Alpha"), _big("Bravo"), _big("Charlie")]


async def _compacted_session(tmp_path: Path, compact_reply: list[Step]) -> tuple[Reader, list[Any], Session]:
    script: list[Step] = [Reply(text=f"ok {n}") for n in range(1, 4)]
    script += [*compact_reply, Reply(text="ok 4")]
    with OpenAIResponsesServer(script) as server:
        base = options(tmp_path / "ws", tmp_path, server, model="gpt-5", wire_api="responses")
        context = msgspec.structs.replace(base.settings.context, max_context_tokens=30_000)
        opts = dataclasses.replace(base, settings=msgspec.structs.replace(base.settings, context=context))
        (tmp_path / "ws").mkdir()
        session = await Session.open(opts)
        reader = Reader(session)
        for prompt in PROMPTS:
            ended = len(reader.of(TurnCompleted)) + len(reader.of(TurnFailed))
            await session.submit(UserInput(prompt))
            await wait_turn_end(reader, ended)
        await session.submit(Compact())
        await reader.wait_for(ThreadCompacted)
        await session.submit(UserInput("go on"))
        await wait_turn_end(reader, 3)
        await reader.close()
        bodies = [(r.path, r.json()) for r in server.requests]
    assert not reader.of(TurnFailed)
    return reader, bodies, session


def _input_texts(body: dict[str, Any]) -> list[str]:
    return [
        part["text"] for item in body["input"] if item.get("type") == "message" for part in item["content"]
    ]


async def test_an_opaque_compaction_item_alone_gets_the_local_tail_and_is_sent_back(tmp_path: Path) -> None:
    reader, bodies, session = await _compacted_session(tmp_path, [JsonReply({"output": [OPAQUE]})])
    (event,) = reader.of(ThreadCompacted)
    assert (event.trigger, event.mode) == ("manual", "native")
    path, compact = bodies[3]
    assert path == "/v1/responses/compact"
    assert [t for t in _input_texts(compact) if t in PROMPTS] == PROMPTS
    assert "stream" not in compact
    _, after = bodies[4]
    assert OPAQUE in after["input"]
    texts = _input_texts(after)
    # No usable tail in the provider's output: the local tail (the newest turns) follows it verbatim.
    assert PROMPTS[2] in texts
    assert any(t.startswith(RETAINED_HEADER) and "Alpha: alpha0 detail" in t for t in texts)
    opaque = [m for m in session.messages if isinstance(m, AssistantMessage) and m.reasoning]
    assert [r.compaction for m in opaque for r in m.reasoning] == [True]


async def test_a_usable_native_tail_is_kept_and_the_prefix_users_words_come_back(tmp_path: Path) -> None:
    output = [
        OPAQUE,
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": PROMPTS[2]}]},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok 3"}]},
    ]
    reader, bodies, _ = await _compacted_session(tmp_path, [JsonReply({"output": output})])
    assert reader.of(ThreadCompacted)[0].mode == "native"
    texts = _input_texts(bodies[4][1])
    assert texts.count(PROMPTS[2]) == 1
    retained = next(t for t in texts if t.startswith(RETAINED_HEADER))
    assert "Alpha: alpha0 detail" in retained
    assert "Bravo: bravo0 detail" in retained


async def test_a_failed_native_compaction_falls_back_to_the_local_summary(tmp_path: Path) -> None:
    failing: list[Step] = [
        HttpError(400, "compaction is not available for this model"),
        Reply(text=GOOD_SUMMARY),
    ]
    reader, bodies, _ = await _compacted_session(tmp_path, failing)
    (event,) = reader.of(ThreadCompacted)
    assert event.mode == "local"
    assert any("native compaction failed" in note for note in event.notes)
    assert [path for path, _ in bodies[3:5]] == ["/v1/responses/compact", "/v1/responses"]
    summary_request = bodies[4][1]
    assert "tools" not in summary_request
    assert "<transcript>" in json.dumps(summary_request["input"][-1])


async def test_the_usage_a_compaction_endpoint_reports_is_counted_under_compaction(tmp_path: Path) -> None:
    usage = {"input_tokens": 40_000, "output_tokens": 700, "input_tokens_details": {"cached_tokens": 10_000}}
    _, _, session = await _compacted_session(tmp_path, [JsonReply({"output": [OPAQUE], "usage": usage})])
    (row,) = [r for r in session.usage().rows if r.source == "compaction"]
    assert (row.model, row.requests) == ("gpt-5", 1)
    assert (row.usage.input_tokens, row.usage.output_tokens, row.usage.cached_input_tokens) == (
        40_000,
        700,
        10_000,
    )
    # gpt-5 at table prices: $1.25 in, $0.125 cached in, $10 out per million.
    assert row.cost_usd == pytest.approx((30_000 * 1.25 + 10_000 * 0.125 + 700 * 10) / 1e6)
