"""The request-size check names the biggest items; the gain check; where recovery compaction stops."""

from __future__ import annotations

from tests.core.compaction.sized import calls, estimator, reply, result, user

from vtcode.core.compaction.thresholds import thresholds
from vtcode.core.compaction.window import (
    Item,
    biggest_items,
    gained_enough,
    over_window_message,
    recovery_split,
)
from vtcode.protocol.messages import Message, ToolResultMessage


def test_an_oversized_request_fails_naming_its_biggest_items() -> None:
    huge = ToolResultMessage(call_id="c1", name="exec_command", content="x" * 50_000)
    history: list[Message] = [user("build it", 30), calls("c1"), huge, reply("done", 40)]
    items = biggest_items(history, estimator(), limit=2)
    assert items == [
        Item(index=2, tokens=50_006, label=f'exec_command result "{"x" * 60}…"'),
        Item(index=3, tokens=40, label=f'assistant message "{"done".ljust(36, ".")}"'),
    ]
    message = over_window_message(50_100, 32_000, items)
    assert message is not None
    assert message.startswith("the next request needs about 50,100 tokens but the model's window is 32,000")
    assert "exec_command result" in message
    assert over_window_message(31_000, 32_000, items) is None
    assert over_window_message(31_000, 0, items) is None


def test_a_compaction_must_end_under_the_soft_threshold() -> None:
    limits = thresholds(200_000)  # soft 129,600
    assert gained_enough(129_599, limits)
    assert not gained_enough(129_600, limits)
    assert gained_enough(10**9, thresholds(0, 0))


def test_recovery_keeps_the_current_turn_from_its_user_message() -> None:
    history: list[Message] = [user("old"), reply("old answer"), user("now"), calls("c1"), result("c1")]
    assert recovery_split(history, 2) == 2
    assert recovery_split(history, 4) == 2
    assert recovery_split([reply("setup"), calls("c1"), result("c1")], 1) == 1
    assert recovery_split([], 0) == 0
