"""An approval that also changes the call's arguments (`ApprovalAnswer.updated_arguments`).

The answer comes after the deny rules and the approval mode (the permission order), so the arguments it
substitutes are checked again before they run: they must fit the tool's schema, and a deny rule or the
mode that refuses the new call still refuses it. An "ask" is not asked twice: whoever answered with the
new arguments approved them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from vtcode.core.approvals import ApprovalPolicy, Decision, decide
from vtcode.protocol.ops import ApprovalAnswer
from vtcode.tools.base import CallDescription, Tool

Rewrite = tuple[dict[str, Any], CallDescription]


class Rewrites:
    """Substituted arguments, checked, by call id, from the approval until the call runs."""

    def __init__(self, policy: Callable[[], ApprovalPolicy]) -> None:
        self._policy = policy  # the dispatcher's policy as it is now (the mode can change mid-session)
        self._pending: dict[str, Rewrite] = {}

    def settle(
        self,
        granted: Decision,
        answer: ApprovalAnswer,
        tool: Tool,
        call_id: str,
    ) -> Decision:
        """`granted`, keeping the answer's substituted arguments for the call; a denial when refused."""
        if answer.updated_arguments is None or granted.action != "allow":
            return granted
        checked = checked_rewrite(self._policy(), tool, answer.updated_arguments)
        if isinstance(checked, Decision):
            return checked
        self._pending[call_id] = checked
        return granted

    def take(self, call_id: str) -> Rewrite | None:
        """The arguments and description the call runs with instead of its own, once."""
        return self._pending.pop(call_id, None)


def checked_rewrite(policy: ApprovalPolicy, tool: Tool, updated: Mapping[str, Any]) -> Rewrite | Decision:
    """The substituted arguments and their description, or the denial of the call they describe."""
    name = tool.spec.name
    arguments = dict(updated)
    # Loaded at the first substituted arguments (SDK callbacks only), not at every session's start.
    from vtcode.core.hooks.input_check import input_problem

    problem = input_problem(tool.spec.parameters, arguments)
    if problem is not None:
        return Decision(
            "deny", f"the approval changed the arguments of `{name}` into ones it does not accept: {problem}"
        )
    described = tool.describe(arguments)
    # Grants only answer an "ask", which the approval being checked has answered already.
    verdict = decide(msgspec.structs.replace(policy, headless=False), tool.kind, described.subject, tool=name)
    if verdict.action == "deny":
        return Decision("deny", f"the arguments the approval substituted are refused: {verdict.reason}")
    return arguments, described
