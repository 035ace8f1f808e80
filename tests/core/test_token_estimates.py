"""Per-message and per-request token estimates (reference compaction-steering 14.1)."""

from __future__ import annotations

from vtcode.core.tokens import (
    MessageEstimator,
    byte_heuristic_tokens,
    message_tokens,
    request_tokens,
)
from vtcode.protocol.messages import (
    AssistantMessage,
    MessageMeta,
    Reasoning,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.tokens.encoding import text_counter


def test_message_estimates_follow_the_reference_rules() -> None:
    count = text_counter()
    assert message_tokens(UserMessage(""), count) == 4
    assert message_tokens(UserMessage("Hello world"), count) == 6
    assert message_tokens(SystemMessage("Hello world"), count) == 6
    call = AssistantMessage(tool_calls=(ToolCall("c1", "run", "{}"),))
    assert message_tokens(call, count) == 4 + 20 + count("run") + count("{}")
    thinking = AssistantMessage(tool_calls=call.tool_calls, reasoning=(Reasoning(text="r" * 10_000),))
    assert message_tokens(thinking, count) == message_tokens(call, count)
    result = ToolResultMessage(call_id="c1", name="run", content='{"ok": true}')
    assert message_tokens(result, count) == 4 + count("c1") + count('{"ok": true}')
    tagged = UserMessage("Hello world", meta=MessageMeta(intent_id="i-1", turn=3))
    assert message_tokens(tagged, count) == 6


def test_the_byte_heuristic_is_the_ceiling_of_a_quarter() -> None:
    assert byte_heuristic_tokens("abcde") == 2
    assert byte_heuristic_tokens("") == 0
    assert byte_heuristic_tokens("é" * 2) == 1


def test_request_estimate_adds_prompt_schemas_and_messages() -> None:
    schema = "x" * 401
    total = request_tokens(
        system_prompt="y" * 400,
        tool_schemas_json=[schema],
        message_estimates=[6, 4],
        count=byte_heuristic_tokens,
    )
    assert total == 100 + 101 + 10


def test_estimates_are_cached_by_value_and_forgotten_on_request() -> None:
    calls: list[str] = []

    def counting(text: str) -> int:
        calls.append(text)
        return len(text)

    estimate = MessageEstimator(counting)
    first, second = UserMessage("abc"), UserMessage("defg")
    assert estimate.total([first, second, UserMessage("abc")]) == 7 + 8 + 7
    assert calls == ["abc", "defg"]
    estimate.forget_all_but([second])
    estimate(first)
    assert calls == ["abc", "defg", "abc"]
