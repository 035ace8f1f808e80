"""Input typed into a session in pieces: the lines a shell would run, and deny rules on them."""

from __future__ import annotations

import pytest

from vtcode.core.approvals import ApprovalPolicy, decide_input
from vtcode.core.typed_input import MAX_PENDING_CHARS, TypedLines, type_input


@pytest.mark.parametrize(
    ("pending", "chars", "expected"),
    [
        ("", "ls\n", TypedLines(("ls",), "")),
        ("rm -", "rf x\n", TypedLines(("rm -rf x",), "")),
        ("", "a\r\nb\rc", TypedLines(("a", "b"), "c", ("c",))),
        ("rm -", "\x15ls\n", TypedLines(("ls",), "")),
        ("rm -", "\x03", TypedLines((), "")),
        ("rm -rx", "\x7f\bf x\n", TypedLines(("rm -f x",), "")),
        ("", "\n\n", TypedLines((), "")),
    ],
)
def test_lines_completed_by_typed_input(pending: str, chars: str, expected: TypedLines) -> None:
    assert type_input(pending, chars) == expected


def test_an_endless_unfinished_line_keeps_only_its_tail() -> None:
    assert type_input("", "x" * (MAX_PENDING_CHARS + 10)).pending == "x" * MAX_PENDING_CHARS


def test_deny_rules_see_a_command_typed_in_two_pieces() -> None:
    policy = ApprovalPolicy("full-auto", deny=("rm -rf",))
    assert decide_input(policy, "rm -").action == "allow"
    denied = decide_input(policy, "rf victim\n", pending="rm -")
    assert denied.action == "deny"
    assert "input `rm -rf victim`" in denied.reason


def test_an_unfinished_denied_command_is_refused_before_enter() -> None:
    policy = ApprovalPolicy("full-auto", deny=("rm -rf",))
    assert decide_input(policy, "rm -fr victim").action == "deny"


@pytest.mark.parametrize(
    "chars",
    [
        "r\x17rm -rf victim\n",  # Ctrl-W erases the decoy word
        "-rf victim\x01rm \n",  # Ctrl-A: the program is typed at the start of the line
        "-rf victim\x1b[Hrm \n",  # the Home key, likewise
        "rm -rf victim\x15\x19\n",  # Ctrl-U kills the line, Ctrl-Y yanks it back
        "victim\x1b[D\x1b[D\x1b[D\x1b[D\x1b[D\x1b[Drm -rf \n",  # arrow keys
    ],
)
def test_line_editing_keys_cannot_hide_a_denied_command(chars: str) -> None:
    policy = ApprovalPolicy("full-auto", deny=("rm -rf",))
    denied = decide_input(policy, chars)
    assert denied.action == "deny", chars
    assert "rm -rf victim" in denied.reason


def test_input_with_a_computed_program_is_refused_when_deny_rules_exist() -> None:
    policy = ApprovalPolicy("full-auto", deny=("rm -rf",))
    assert decide_input(policy, "$(echo rm) -rf victim\n").action == "deny"
    assert decide_input(ApprovalPolicy("full-auto"), "$(echo rm) -rf victim\n").action == "allow"
