"""Fences and code spans as the instruction pipeline reads them (CommonMark, line by line)."""

from __future__ import annotations

from vtcode.core.instructions.markdown import FenceTracker, blank_code_spans, close_open_fence
from vtcode.core.instructions.text import import_tokens, strip_html_comments


def _code_lines(text: str) -> list[bool]:
    tracker = FenceTracker()
    return [tracker.feed(line) for line in text.split("\n")]


def test_a_fence_closes_only_with_the_same_character_at_least_as_long() -> None:
    assert _code_lines("````\n```\n~~~~\n````\nafter") == [True, True, True, True, False]
    assert _code_lines("~~~ py\n```\n~~~\nafter") == [True, True, True, False]
    assert _code_lines("```bash\ncode ```\n```  \nafter") == [True, True, True, False]


def test_inline_triple_backticks_do_not_open_a_fence() -> None:
    assert _code_lines("```a` b```\ntext") == [False, False]
    assert _code_lines("``\ntext") == [False, False]


def test_an_open_fence_is_closed_with_its_own_opener() -> None:
    assert close_open_fence("- x\n````md\nhalf a li") == "- x\n````md\nhalf a li\n````\n"
    assert close_open_fence("~~~\ncode\n") == "~~~\ncode\n~~~\n"
    assert close_open_fence("```\ndone\n```\n") == "```\ndone\n```\n"


def test_code_spans_are_blanked_and_unmatched_backticks_kept() -> None:
    assert blank_code_spans("a `b` c") == "a     c"
    assert blank_code_spans("a ``x ` y`` c") == "a " + " " * 9 + " c"
    assert blank_code_spans("a `b c") == "a `b c"


def test_imports_outside_code_spans_still_count() -> None:
    assert import_tokens("`@a/b.md` then @c/d.md and ``@e.md``") == ["c/d.md"]
    assert import_tokens("unclosed `@a/b.md") == []  # the backtick stays part of the token


def test_comments_inside_a_longer_fence_are_kept_until_its_real_close() -> None:
    text = "````\n<!-- kept -->\n```\n<!-- still code -->\n````\n<!-- gone -->x"
    assert strip_html_comments(text) == "````\n<!-- kept -->\n```\n<!-- still code -->\n````\nx\n"
