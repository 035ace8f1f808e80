"""Approval decisions: modes × kinds × rules, deny wins, headless resolution, and reason sentences."""

from __future__ import annotations

import pytest

from vtcode.core.approvals import (
    APPROVAL_MODES,
    ApprovalMode,
    ApprovalPolicy,
    Decision,
    decide,
    resolve_headless,
)
from vtcode.protocol.model import ToolKind

Rules = tuple[tuple[str, ...], tuple[str, ...]]  # (allow, deny)

NO_RULES: Rules = ((), ())
ALLOW_GIT: Rules = (("git status",), ())
ALLOW_GIT_GLOB: Rules = (("git *",), ())
ALLOW_AND_DENY_GIT: Rules = (("git status",), ("git status",))
DENY_GLOB: Rules = ((), ("git st*",))
DENY_EVERYTHING: Rules = ((), ("*",))

# (name, kind, command, rules, expected action in read-only, ask, auto-edit, full-auto)
TABLE: list[tuple[str, ToolKind, str, Rules, tuple[str, str, str, str]]] = [
    ("read", "read", "", NO_RULES, ("allow", "allow", "allow", "allow")),
    ("read-deny-rules-are-for-commands", "read", "", DENY_EVERYTHING, ("allow",) * 4),
    ("edit", "edit", "", NO_RULES, ("deny", "ask", "allow", "allow")),
    ("edit-deny-rules-are-for-commands", "edit", "", DENY_EVERYTHING, ("deny", "ask", "allow", "allow")),
    ("command", "command", "git status -s", NO_RULES, ("deny", "ask", "ask", "allow")),
    ("command-allow-rule", "command", "git status -s", ALLOW_GIT, ("deny", "allow", "allow", "allow")),
    ("command-allow-glob", "command", "git status -s", ALLOW_GIT_GLOB, ("deny", "allow", "allow", "allow")),
    ("command-other-rule", "command", "make build", ALLOW_GIT, ("deny", "ask", "ask", "allow")),
    ("command-compound", "command", "git status; make", ALLOW_GIT, ("deny", "ask", "ask", "allow")),
    ("command-deny-wins", "command", "git status -s", ALLOW_AND_DENY_GIT, ("deny",) * 4),
    ("command-deny-glob", "command", "git status -s", DENY_GLOB, ("deny",) * 4),
]


def _cases(headless: bool) -> list[object]:
    return [
        pytest.param(
            kind,
            command,
            rules,
            mode,
            "deny" if headless and action == "ask" else action,
            id=f"{name}-{mode}",
        )
        for name, kind, command, rules, actions in TABLE
        for mode, action in zip(APPROVAL_MODES, actions, strict=True)
    ]


@pytest.mark.parametrize(("kind", "command", "rules", "mode", "action"), _cases(headless=False))
def test_decision_table(kind: ToolKind, command: str, rules: Rules, mode: ApprovalMode, action: str) -> None:
    policy = ApprovalPolicy(mode, allow=rules[0], deny=rules[1])

    assert decide(policy, kind, command).action == action


@pytest.mark.parametrize(("kind", "command", "rules", "mode", "action"), _cases(headless=True))
def test_headless_policy_never_asks(
    kind: ToolKind, command: str, rules: Rules, mode: ApprovalMode, action: str
) -> None:
    policy = ApprovalPolicy(mode, allow=rules[0], deny=rules[1], headless=True)

    assert decide(policy, kind, command).action == action


def test_command_without_allow_rule_asks_and_headless_denies_with_the_way_out() -> None:
    decision = decide(ApprovalPolicy("auto-edit", allow=("git status",)), "command", "rm -rf build")

    assert decision == Decision(
        "ask",
        "command `rm -rf build` needs the user's approval in auto-edit mode: no [approvals] allow "
        "rule matches it",
        headless_reason="command `rm -rf build` is not allowed in auto-edit mode without an allow "
        "rule; ask the user to rerun with --approval full-auto or add an [approvals] allow rule",
    )
    assert resolve_headless(decision) == Decision(
        "deny",
        "command `rm -rf build` is not allowed in auto-edit mode without an allow rule; ask the "
        "user to rerun with --approval full-auto or add an [approvals] allow rule",
    )


def test_compound_command_reason_names_the_part_without_a_rule() -> None:
    policy = ApprovalPolicy("ask", allow=("git status",), headless=True)

    assert decide(policy, "command", "git status && rm -rf build") == Decision(
        "deny",
        "command `git status && rm -rf build` is not allowed in ask mode without an allow rule "
        "(its part `rm -rf build` matches no allow rule, and every part of a compound command "
        "must); ask the user to rerun with --approval full-auto or add an [approvals] allow rule",
    )


def test_redirect_and_unparsable_reasons() -> None:
    policy = ApprovalPolicy("ask", allow=("echo",))

    assert decide(policy, "command", "echo hi > notes.txt").reason == (
        "command `echo hi > notes.txt` needs the user's approval in ask mode: it redirects output to "
        "a file, which allow rules do not cover"
    )
    assert decide(policy, "command", 'echo "open').reason == (
        "command `echo \"open` needs the user's approval in ask mode: it does not parse as a shell "
        "command line, so no allow rule can match"
    )


def test_allow_reason_names_the_rules_used() -> None:
    policy = ApprovalPolicy("ask", allow=("git status", "cargo test", "ls"))

    assert decide(policy, "command", "git status; cargo test -q") == Decision(
        "allow",
        "command `git status; cargo test -q` matches the [approvals] allow rules `git status`, `cargo test`",
    )


def test_deny_rule_wins_even_in_full_auto() -> None:
    policy = ApprovalPolicy("full-auto", allow=("cd", "git push"), deny=("git push",))

    assert decide(policy, "command", "cd app && git push --force") == Decision(
        "deny",
        "command `cd app && git push --force` matches the deny rule `git push` in the [approvals] "
        "config, which blocks it in every approval mode; do not retry it, find another way or "
        "ask the user",
    )


def test_read_only_denies_commands_even_with_an_allow_rule() -> None:
    policy = ApprovalPolicy("read-only", allow=("git status",))

    assert decide(policy, "command", "git status -s") == Decision(
        "deny",
        "command `git status -s` is not allowed in read-only mode, which runs no commands; ask "
        "the user to rerun with --approval ask, auto-edit or full-auto",
    )


def test_edit_reasons() -> None:
    assert decide(ApprovalPolicy("read-only"), "edit", tool="apply_patch") == Decision(
        "deny",
        "`apply_patch` (a file edit) is not allowed in read-only mode; describe the change instead, "
        "or ask the user to rerun with --approval auto-edit",
    )
    assert decide(ApprovalPolicy("ask", headless=True), "edit", tool="write_file") == Decision(
        "deny",
        "`write_file` (a file edit) is not allowed in ask mode without the user's approval; ask the "
        "user to rerun with --approval auto-edit",
    )
    assert decide(ApprovalPolicy("auto-edit"), "edit") == Decision(
        "allow", "a file edit is allowed in auto-edit mode"
    )


def test_read_reason() -> None:
    assert decide(ApprovalPolicy("read-only"), "read", tool="grep_files") == Decision(
        "allow", "`grep_files` (a read) is allowed in every approval mode"
    )


def test_headless_leaves_allow_and_deny_alone() -> None:
    allow = decide(ApprovalPolicy("full-auto"), "command", "git status")
    deny = decide(ApprovalPolicy("read-only"), "edit")

    assert (resolve_headless(allow), resolve_headless(deny)) == (allow, deny)


def test_headless_without_a_prepared_reason_still_explains() -> None:
    assert resolve_headless(Decision("ask", "mcp tool `x` needs approval")) == Decision(
        "deny", "mcp tool `x` needs approval; nobody can approve it in a headless run"
    )


def test_long_commands_are_shortened_in_reasons() -> None:
    reason = decide(ApprovalPolicy("ask"), "command", "echo " + "x" * 500).reason

    assert reason == (
        f"command `echo {'x' * 194}…` needs the user's approval in ask mode: no [approvals] allow "
        "rule matches it"
    )


def test_input_to_a_session_is_checked_against_deny_rules() -> None:
    from vtcode.core.approvals import decide_input

    policy = ApprovalPolicy("full-auto", deny=("rm",))
    assert decide_input(policy, "ls -la\n").action == "allow"
    denied = decide_input(policy, "echo hi\nrm victim.txt\n")
    assert denied.action == "deny"
    assert "rm victim.txt" in denied.reason
    assert "deny rule `rm`" in denied.reason
