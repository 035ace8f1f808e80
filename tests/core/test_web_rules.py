"""Approval of web_fetch per domain: rules, session grants, headless runs."""

from __future__ import annotations

from vtcode.core.approvals import ApprovalPolicy, Decision, SessionGrants, decide
from vtcode.core.web_rules import decide_web_fetch, matching_rule, session_grant

NO_GRANTS = SessionGrants()


def _web(policy: ApprovalPolicy, domain: str, grants: SessionGrants = NO_GRANTS) -> Decision:
    return decide(policy, "external", domain, tool="web_fetch", grants=grants)


def test_a_new_domain_is_asked_about_in_ask_mode() -> None:
    decision = _web(ApprovalPolicy("ask"), "docs.python.org")
    assert decision.action == "ask"
    assert "web_fetch(domain:docs.python.org)" in decision.reason


def test_allow_and_deny_rules_name_domains_and_globs() -> None:
    policy = ApprovalPolicy(
        "ask",
        allow=("git status", "web_fetch(domain:docs.python.org)", "web_fetch(domain:*.rust-lang.org)"),
        deny=("web_fetch(domain:evil.example)",),
    )
    assert _web(policy, "docs.python.org") == Decision(
        "allow",
        "`web_fetch` from docs.python.org matches the [approvals] allow rule "
        "`web_fetch(domain:docs.python.org)`",
    )
    assert _web(policy, "doc.rust-lang.org").action == "allow"
    assert _web(policy, "python.org").action == "ask"
    denied = _web(ApprovalPolicy("full-auto", deny=policy.deny), "evil.example")
    assert denied.action == "deny"
    assert "deny rule `web_fetch(domain:evil.example)`" in denied.reason
    assert matching_rule("x.org", ("web_fetch",)) == "web_fetch"


def test_headless_runs_deny_without_an_allow_rule_even_in_full_auto() -> None:
    for mode in ("ask", "auto-edit", "full-auto"):
        decision = _web(ApprovalPolicy(mode, headless=True), "docs.python.org")
        assert decision.action == "deny"
        assert "add `web_fetch(domain:docs.python.org)` to [approvals] allow" in decision.reason
    allowed = ApprovalPolicy("full-auto", allow=("web_fetch(domain:docs.python.org)",), headless=True)
    assert _web(allowed, "docs.python.org").action == "allow"


def test_full_auto_with_someone_to_ask_allows() -> None:
    assert _web(ApprovalPolicy("full-auto"), "docs.python.org").action == "allow"


def test_a_session_grant_covers_its_domain_only() -> None:
    grants = SessionGrants().with_grant(session_grant("docs.python.org"))
    assert _web(ApprovalPolicy("ask"), "docs.python.org", grants).action == "allow"
    assert _web(ApprovalPolicy("ask"), "pypi.org", grants).action == "ask"
    assert session_grant("docs.python.org").describe() == "every web_fetch(domain:docs.python.org) call"


def test_urls_the_tool_refuses_itself_need_no_approval() -> None:
    assert decide_web_fetch(ApprovalPolicy("ask"), "").action == "allow"
