"""Tell a program once when a rule or the approval mode settled a call its permission callback never saw.

Installed only for sessions whose front end answers approvals with a callback (the SDK's `permission`);
`vtcode exec`, the TUI and ACP never install it, so their event streams do not change. Reported once per
(rule, tool) pair per session object: the first shadowed call says what the callback will keep missing;
repeating it on every call would bury the turn's own events. A resumed session reports afresh.
"""

from __future__ import annotations

from collections.abc import Callable

from vtcode.core.approvals import ApprovalPolicy
from vtcode.protocol.events import Event, PolicyShadowed
from vtcode.protocol.model import ToolKind


class ShadowWatch:
    """Emits one `policy.shadowed` event per (rule, tool) that settles calls before the callback."""

    def __init__(self) -> None:
        self._emit: Callable[[Event], None] | None = None  # off until a front end asks for reports
        self._reported: set[tuple[str, str, str]] = set()

    def report_to(self, emit: Callable[[Event], None]) -> None:
        """Start reporting shadowed calls through `emit` (the session's emitter)."""
        self._emit = emit

    def observe(self, policy: ApprovalPolicy, kind: ToolKind, tool: str, subject: str) -> None:
        """Look at one call before its approval; report it if a rule or the mode settles it first."""
        if self._emit is None:
            return
        # Loaded with the first report: only SDK sessions with a permission callback ever get here.
        from vtcode.core.policy_shadow import find_shadow

        shadow = find_shadow(policy, kind, subject, tool=tool)
        if shadow is None:
            return
        key = (shadow.source, shadow.rule, tool)
        if key in self._reported:
            return
        self._reported.add(key)
        self._emit(
            PolicyShadowed(
                tool=tool,
                kind=kind,
                source=shadow.source,
                rule=shadow.rule,
                action=shadow.action,
                reason=shadow.reason,
            )
        )
