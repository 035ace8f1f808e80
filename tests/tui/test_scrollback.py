"""What quitting the TUI leaves in the terminal's scrollback: the conversation, as plain text."""

from __future__ import annotations

import json

from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from vtcode.tui.scrollback import conversation_text


def _call(name: str, **arguments: str) -> ToolCall:
    return ToolCall(id=f"c-{name}", name=name, arguments=json.dumps(arguments))


def test_prompts_answers_and_one_line_per_call_stay_and_vtcodes_own_items_do_not() -> None:
    messages: list[Message] = [
        UserMessage("<environment_context>cwd</environment_context>", meta=MessageMeta(kind="context")),
        UserMessage("run the tests\nand fix them"),
        AssistantMessage(
            tool_calls=(_call("exec_command", cmd="pytest  -q"), _call("read_file", path="a.py"))
        ),
        ToolResultMessage(call_id="c-exec_command", name="exec_command", content="1 failed"),
        AssistantMessage("Fixed \x1b]0;pwned\x07the \x1b[31mtest\x1b[0m."),
    ]
    assert conversation_text(messages, "s-1") == (
        "› run the tests\n  and fix them\n  • exec_command pytest -q\n  • read_file a.py\n\nFixed the test.\n"
    )


def test_a_long_conversation_keeps_its_latest_lines_and_says_where_the_rest_is() -> None:
    messages: list[Message] = [
        m for i in range(10) for m in (UserMessage(f"q{i}"), AssistantMessage(f"a{i}"))
    ]
    text = conversation_text(messages, "s-2", max_lines=5)
    assert text.splitlines() == [
        "(35 earlier lines: vtcode sessions show s-2)",
        "a8",
        "",
        "› q9",
        "",
        "a9",
    ]


def test_a_session_without_a_prompt_leaves_nothing() -> None:
    assert conversation_text([UserMessage("ctx", meta=MessageMeta(kind="context"))], "s-3") == ""


def test_a_call_that_never_ran_says_so() -> None:
    messages: list[Message] = [
        UserMessage("clean up"),
        AssistantMessage(tool_calls=(_call("exec_command", cmd="rm -rf build"),)),
        ToolResultMessage(
            call_id="c-exec_command",
            name="exec_command",
            content="not run: too dangerous; do not retry it unchanged",
            is_error=True,
        ),
        AssistantMessage(tool_calls=(_call("read_file", path="missing.txt"),)),
        ToolResultMessage(call_id="c-read_file", name="read_file", content="no such file", is_error=True),
        AssistantMessage("Left it."),
    ]
    assert conversation_text(messages, "s-1") == (
        "› clean up\n  • exec_command rm -rf build  (not run)\n  • read_file missing.txt\n\nLeft it.\n"
    )
