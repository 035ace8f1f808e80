"""`find_shadow`: what settles a call that `ask` mode with no rules would put to a permission callback."""

from __future__ import annotations

import pytest

from vtcode.core.approvals import ApprovalMode, ApprovalPolicy
from vtcode.core.policy_shadow import find_shadow
from vtcode.protocol.model import ToolKind

RULES = {"allow": ("git status", "mcp__gh__*"), "deny": ("rm", "mcp__gh__delete")}


@pytest.mark.parametrize(
    ("mode", "kind", "tool", "subject", "expected"),
    [
        ("ask", "read", "read_file", "", None),  # reads are never the callback's to see
        ("ask", "command", "exec_command", "ls", None),  # left open: the callback decides
        ("ask", "command", "exec_command", "rm -rf x", ("deny_rule", "rm", "deny")),
        ("full-auto", "command", "exec_command", "rm x", ("deny_rule", "rm", "deny")),  # deny beats mode
        ("ask", "command", "exec_command", "git status", ("allow_rule", "git status", "allow")),
        ("full-auto", "command", "exec_command", "ls", ("approval_mode", "full-auto", "allow")),
        ("read-only", "command", "exec_command", "ls", ("approval_mode", "read-only", "deny")),
        ("auto-edit", "edit", "apply_patch", "", ("approval_mode", "auto-edit", "allow")),
        ("ask", "edit", "apply_patch", "", None),
        ("ask", "external", "mcp__gh__list", "", ("allow_rule", "mcp__gh__*", "allow")),
        ("ask", "external", "mcp__gh__delete", "", ("deny_rule", "mcp__gh__delete", "deny")),
    ],
)
def test_the_rule_or_mode_that_settles_a_call_is_named(
    mode: ApprovalMode, kind: ToolKind, tool: str, subject: str, expected: tuple[str, str, str] | None
) -> None:
    policy = ApprovalPolicy(mode=mode, allow=RULES["allow"], deny=RULES["deny"])
    shadow = find_shadow(policy, kind, subject, tool=tool)
    assert (None if shadow is None else (shadow.source, shadow.rule, shadow.action)) == expected
