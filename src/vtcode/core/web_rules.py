"""Approval of `web_fetch` calls, per domain: rules `web_fetch(domain:docs.python.org)` and session grants.

| policy                        | decision                                                        |
| ----------------------------- | --------------------------------------------------------------- |
| a deny rule names the domain  | deny, in every mode                                              |
| an allow rule names it        | allow                                                            |
| allowed for this session      | allow (the user's "allow for this session" on an earlier fetch)  |
| full-auto, interactive        | allow                                                            |
| headless (`vtcode exec`)      | deny, saying which allow rule would let it run (full-auto too)   |
| otherwise                     | ask the user                                                     |

A rule's domain is a host name or a glob (`*.python.org`); bare `web_fetch` names every domain. Rules
come from config and flags only; a workspace file may add deny rules, never allow rules.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from vtcode.core.approvals import (
    ApprovalPolicy,
    Decision,
    Grant,
    SessionGrants,
    rule_allowance,
    rule_denial,
)

WEB_FETCH = "web_fetch"
_RULE_HEAD = f"{WEB_FETCH}(domain:"
_NO_GRANTS = SessionGrants()


def domain_rule(domain: str) -> str:
    """The rule (and session grant) naming `domain`: `web_fetch(domain:docs.python.org)`."""
    return f"{_RULE_HEAD}{domain})"


def rule_domain(rule: str) -> str | None:
    """The domain pattern a `web_fetch(domain:...)` rule names; "*" for a bare `web_fetch`; None else."""
    text = rule.strip()
    if text == WEB_FETCH:
        return "*"
    if text.startswith(_RULE_HEAD) and text.endswith(")"):
        pattern = text[len(_RULE_HEAD) : -1].strip().lower()
        return pattern or None
    return None


def matching_rule(domain: str, rules: Sequence[str]) -> str | None:
    """The first web_fetch rule in `rules` whose domain pattern matches `domain`, or None."""
    host = domain.lower()
    for rule in rules:
        pattern = rule_domain(rule)
        if pattern is not None and fnmatch.fnmatchcase(host, pattern):
            return rule
    return None


def session_grant(domain: str) -> Grant:
    """What "allow for this session" on a fetch from `domain` remembers."""
    return Grant("tool", domain_rule(domain))


def decide_web_fetch(policy: ApprovalPolicy, domain: str, grants: SessionGrants = _NO_GRANTS) -> Decision:
    """Whether a fetch from `domain` may run under `policy` (see the module's table)."""
    if not domain:
        # The tool refuses such a URL itself (a bad scheme, a loopback address) without sending anything.
        return Decision("allow", f"`{WEB_FETCH}` refuses this URL itself, without any request")
    fetch = f"`{WEB_FETCH}` from {domain}"
    denied_by = matching_rule(domain, policy.deny)
    if denied_by is not None:
        return rule_denial(fetch, denied_by)
    allowed_by = matching_rule(domain, policy.allow)
    if allowed_by is not None:
        return rule_allowance(fetch, allowed_by)
    if domain_rule(domain) in grants.tools or WEB_FETCH in grants.tools:
        return Decision("allow", f"fetches from {domain} were allowed for this session by the user")
    rule = domain_rule(domain)
    if policy.headless:
        return Decision(
            "deny",
            f"{fetch} is not allowed in a headless run without an [approvals] allow rule; ask the user "
            f"to add `{rule}` to [approvals] allow",
        )
    if policy.mode == "full-auto":
        return Decision("allow", f"{fetch} is allowed in full-auto mode")
    return Decision(
        "ask",
        f"{fetch} needs the user's approval on first use (or an [approvals] allow rule `{rule}`)",
        headless_reason=f"{fetch} is not allowed without an [approvals] allow rule `{rule}`",
    )
