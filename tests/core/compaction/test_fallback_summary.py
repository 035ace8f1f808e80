"""The deterministic summary: the first request as goal, changed files apart from reads, no nesting."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from vtcode.core.compaction.fallback import READ_LINE_PREFIX, fallback_summary, sections
from vtcode.core.compaction.retention import RETAINED_HEADER
from vtcode.core.compaction.summary import SUMMARY_PREFIX, summary_message
from vtcode.protocol.messages import (
    AssistantMessage,
    Message,
    MessageMeta,
    SystemMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

WS = "/ws"
CONTEXT = UserMessage(
    "<environment_context>\n  <cwd>/ws</cwd>\n</environment_context>", meta=MessageMeta(kind="context")
)


def _round_trip(n: int, tool: str, path: str, *, error: bool = False) -> list[Message]:
    call = ToolCall(f"c{n}", tool, f'{{"path": "{path}"}}')
    return [
        AssistantMessage(tool_calls=(call,)),
        ToolResultMessage(
            call_id=f"c{n}", name=tool, content="ok", is_error=error, meta=MessageMeta(paths=(path,))
        ),
    ]


def _long_turn(reads: int, patched: Sequence[str], *, failed: bool = True) -> list[Message]:
    messages: list[Message] = [CONTEXT, UserMessage("make the test suite pass")]
    for n in range(reads):
        messages += _round_trip(n, "read_file", f"src/only_read_{n:03d}.py")
        if n % 70 == 5:
            messages += _round_trip(10_000 + n, "apply_patch", patched[(n // 70) % len(patched)])
    if failed:
        messages += _round_trip(99_999, "apply_patch", "src/failed_patch.py", error=True)
    messages += _round_trip(99_998, "exec_command", ".")
    return messages


def _summary(text: str, replaced: Sequence[Message]) -> Message:
    """The summary message as compaction writes it: it carries the paths of the messages it replaced."""
    paths = tuple(dict.fromkeys(p for m in replaced for p in m.meta.paths))
    return msgspec.structs.replace(summary_message(text), meta=MessageMeta(paths=paths))


def _bullets(summary: str, section: str) -> list[str]:
    return [line[2:] for line in sections(summary).get(section, []) if line.startswith("- ")]


def _read_line(summary: str) -> str:
    (line,) = [line for line in sections(summary)["Files touched"] if line.startswith(READ_LINE_PREFIX)]
    return line


def test_the_goal_is_the_first_request_of_the_user_not_the_environment_context() -> None:
    summary = fallback_summary(_long_turn(3, ["src/a.py"]), len, WS)
    assert sections(summary)["Goal"] == ["make the test suite pass"]
    assert "environment_context" not in summary


def test_files_touched_are_the_changed_files_and_reads_are_one_capped_line() -> None:
    patched = ["src/a.py", "src/b.py", "src/c.py"]
    summary = fallback_summary(_long_turn(200, patched), len, WS)
    assert sorted(_bullets(summary, "Files touched")) == patched
    line = _read_line(summary)
    assert line.startswith(READ_LINE_PREFIX + "src/only_read_199.py, src/only_read_198.py")
    assert line.endswith(", and 180 more")
    assert line.count("only_read_") == 20


def test_a_previous_summary_is_merged_into_a_fresh_one_not_quoted() -> None:
    patched = ["src/a.py", "src/b.py", "src/c.py"]
    turn = _long_turn(200, patched, failed=False)
    first = fallback_summary(turn, len, WS)
    retained = SystemMessage(RETAINED_HEADER + "\n\n[user]\nmake the test suite pass")
    later: list[Message] = [_summary(first, turn), retained, UserMessage("make the test suite pass")]
    for n in range(300, 350):
        later += _round_trip(n, "read_file", f"src/later_{n}.py")
    later += _round_trip(400, "apply_patch", "src/d.py")
    second = fallback_summary(later, len, WS)
    third = fallback_summary(
        [_summary(second, later), retained, *_round_trip(500, "read_file", "x.py")], len, WS
    )
    for summary in (second, third):
        assert "Earlier summary" not in summary
        assert SUMMARY_PREFIX not in summary
        assert RETAINED_HEADER not in summary
        assert summary.count("## Goal") == 1
        assert sections(summary)["Goal"] == ["make the test suite pass"]
        assert sorted(_bullets(summary, "Files touched")) == [*patched, "src/d.py"]
    assert "- read_file: 251 calls" in sections(third)["Work done"]
    # 200 + 50 + 1 files only read: the 20 most recent named, the rest counted.
    assert _read_line(third).endswith(", and 231 more")
