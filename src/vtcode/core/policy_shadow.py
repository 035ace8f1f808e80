"""Which configured rule or approval mode settles a call that a permission callback would have been asked.

A program that gives an SDK session a `permission` callback expects to see the calls that need a
decision. Calls the `ask` mode allows anyway (reads, input to an approved session) are not its concern;
but a call that `ask` with no rules would put to the callback, and that a deny rule, an allow rule or
the session's approval mode settles first, bypasses it. `find_shadow` names what settled it, so the
runtime can say so once (`runtime.policy_shadow`). Session grants (the callback's own `remember`
answers, the program's registered tools) are not rules: they never count as shadowing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from vtcode.core.approvals import ApprovalPolicy, decide, tool_rule
from vtcode.protocol.model import ToolKind

ShadowSource = Literal["deny_rule", "allow_rule", "approval_mode"]

_WEB_FETCH = "web_fetch"


@dataclass(frozen=True)
class Shadow:
    """What settled a call before the callback: `rule` is the rule's text, or the mode's name."""

    source: ShadowSource
    rule: str
    action: Literal["allow", "deny"]
    reason: str


def find_shadow(policy: ApprovalPolicy, kind: ToolKind, subject: str, *, tool: str) -> Shadow | None:
    """The rule or mode that settles this call although `ask` with no rules would ask; None when none does."""
    baseline = decide(ApprovalPolicy(mode="ask"), kind, subject, tool=tool)
    if baseline.action != "ask":
        return None
    # Without grants and never headless: only what the configuration itself decides.
    actual = decide(ApprovalPolicy(policy.mode, policy.allow, policy.deny), kind, subject, tool=tool)
    if actual.action == "ask":
        return None
    denied = decide(ApprovalPolicy(mode="ask", deny=policy.deny), kind, subject, tool=tool)
    if actual.action == "deny" and denied.action == "deny":
        return Shadow("deny_rule", _rule(policy.deny, kind, subject, tool, deny=True), "deny", actual.reason)
    by_mode = decide(ApprovalPolicy(mode=policy.mode), kind, subject, tool=tool)
    if by_mode.action == actual.action:
        return Shadow("approval_mode", policy.mode, actual.action, actual.reason)
    return Shadow(
        "allow_rule", _rule(policy.allow, kind, subject, tool, deny=False), actual.action, actual.reason
    )


def _rule(rules: tuple[str, ...], kind: ToolKind, subject: str, tool: str, *, deny: bool) -> str:
    """The text of the rule in `rules` that names this call ("" when it cannot be told apart)."""
    if kind == "command":
        from vtcode.core.command_match import match_allow, match_deny

        if deny:
            return match_deny(subject, rules) or ""
        return ", ".join(match_allow(subject, rules).rules)
    if tool == _WEB_FETCH:
        from vtcode.core.web_rules import matching_rule

        return matching_rule(subject, rules) or ""
    return tool_rule(tool, rules) or ""
