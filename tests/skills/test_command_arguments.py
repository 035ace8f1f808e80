"""Arguments of `/name args` placed into command bodies, each source's own numbering (reference 5)."""

from __future__ import annotations

from vtcode.core.definitions.arguments import ShellBlock, expand


def test_claude_numbers_from_zero_and_keeps_quoted_words_together() -> None:
    assert expand("Fix $0 then $1", "claude", '12 "a b"').text([]) == "Fix 12 then a b"
    assert expand("$ARGUMENTS[1] / $ARGUMENTS", "claude", "x y").text([]) == "y / x y"


def test_claude_named_arguments_and_escapes() -> None:
    body = "Issue $issue on $branch costs \\$1"
    assert expand(body, "claude", "7 main", ("issue", "branch")).text([]) == "Issue 7 on main costs $1"


def test_codex_numbers_from_one_and_leaves_double_dollar() -> None:
    assert expand("Review $1 for $$HOME", "codex", "x").text([]) == "Review x for $$HOME"


def test_opencode_last_placeholder_takes_the_rest() -> None:
    assert expand("$1 then $2", "opencode", "a b c d").text([]) == "a then b c d"


def test_no_placeholder_appends_the_arguments() -> None:
    assert expand("Tidy up.", "claude", "src/x.py").text([]) == "Tidy up.\n\nARGUMENTS: src/x.py"
    assert expand("Tidy up.", "gemini", "src/x.py").text([]) == "Tidy up.\n\nsrc/x.py"
    assert expand("Tidy up.", "claude", "").text([]) == "Tidy up."


def test_arguments_inside_shell_blocks_are_always_quoted() -> None:
    expansion = expand("Matches:\n!{grep {{args}} .}\nFix them: {{args}}", "gemini", "it's")
    assert expansion.parts == ("Matches:\n", ShellBlock("grep 'it'\"'\"'s' ."), "\nFix them: it's")
    assert expansion.text(["a.py:1"]) == "Matches:\na.py:1\nFix them: it's"


def test_backtick_shell_blocks_in_claude_commands() -> None:
    assert expand("Status: !`git status --short -- $0`", "claude", "a b").commands == (
        "git status --short -- a",
    )
