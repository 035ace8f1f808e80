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
        ("", "a\r\nb\rc", TypedLines(("a", "b"), "c")),
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
