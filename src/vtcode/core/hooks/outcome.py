"""What one hook run decided, read with Claude Code's rules, and how the runs of one event combine.

Exit 0: stdout starting with `{` is the JSON decision; other stdout is context for the events that take
text (UserPromptSubmit, SessionStart) and ignored elsewhere. Exit 2: block, with stderr as the reason.
Any other exit, a timeout, a program that is missing (exit 126/127 or not started) or JSON that cannot be
read is a failure: with `on_failure = "block"` it blocks, otherwise the run is allowed and a warning is
shown (never silent; reference extensibility.md sections 1.5, 1.6 and 11.1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from vtcode.core.hooks.model import HookEvent, HookHandler

PermissionDecision = Literal["allow", "deny", "ask"]
Outcome = Literal["success", "blocked", "failed", "timed_out", "not_started"]

CONTEXT_CAP = 10_000
# Events where a block changes what happens; elsewhere exit 2 is a failure shown to the user.
BLOCKING_EVENTS: frozenset[HookEvent] = frozenset(
    {"PreToolUse", "PermissionRequest", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact"}
)
# Events whose plain stdout on exit 0 becomes model context.
TEXT_CONTEXT_EVENTS: frozenset[HookEvent] = frozenset({"UserPromptSubmit", "SessionStart"})
# Events whose stderr on exit 2 is feedback for the model although the action already happened.
FEEDBACK_EVENTS: frozenset[HookEvent] = frozenset({"PostToolUse", "PostToolUseFailure"})
_MISSING_PROGRAM = (126, 127)
_SHOWN = 300


@dataclass(frozen=True)
class HookRun:
    """A finished handler process as the runner saw it."""

    exit_code: int | None
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    # Set when the program could not be started at all (not found, not executable).
    start_error: str | None = None


@dataclass(frozen=True)
class HookResult:
    """One run read as a decision."""

    outcome: Outcome
    decision: PermissionDecision | None = None
    reason: str = ""
    context: str = ""
    updated_input: dict[str, Any] | None = None
    # For the user (a failure, a `systemMessage`), never for the model.
    warning: str = ""
    # `continue: false`: stop after this event (`stopReason` for the user).
    stop: bool = False
    # PostToolUse `updatedToolOutput`: what the model reads of the result instead (a redaction).
    updated_output: str | None = None


def read_run(event: HookEvent, handler: HookHandler, run: HookRun) -> HookResult:
    """Apply the exit-code and JSON rules to one run, then the handler's failure policy."""
    failure = _failure(event, handler, run)
    if failure is not None:
        outcome, why = failure
        return _failed(event, handler, outcome, why)
    if run.exit_code == 2:
        reason = run.stderr.strip() or f"blocked by the hook `{_short(handler.display)}`"
        if event in BLOCKING_EVENTS:
            return HookResult("blocked", decision="deny", reason=reason)
        if event in FEEDBACK_EVENTS:
            return HookResult("blocked", context=reason)
        return HookResult("success", warning=f"hook `{_short(handler.display)}`: {reason}")
    text = run.stdout.strip()
    if not text.startswith(("{", "[")):
        context = text if event in TEXT_CONTEXT_EVENTS else ""
        return HookResult("success", context=context)
    try:
        value = json.loads(text)
        if not isinstance(value, dict):
            raise ValueError("the output is JSON but not an object")
        return _read_json(event, value)
    except ValueError as exc:
        return _failed(event, handler, "failed", f"its output could not be read ({exc})")


def _failure(event: HookEvent, handler: HookHandler, run: HookRun) -> tuple[Outcome, str] | None:
    if run.start_error is not None:
        return "not_started", f"it could not be started ({run.start_error})"
    if run.timed_out:
        return "timed_out", f"it ran longer than its timeout of {handler.timeout_for(event):g} s"
    if run.exit_code in _MISSING_PROGRAM:
        return "not_started", f"its program was not found or not executable (exit {run.exit_code})"
    if run.exit_code not in (0, 2):
        first = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
        return "failed", f"it exited with status {run.exit_code}" + (f": {_short(first)}" if first else "")
    return None


def _failed(event: HookEvent, handler: HookHandler, outcome: Outcome, why: str) -> HookResult:
    name = _short(handler.display)
    if handler.on_failure == "block" and event in BLOCKING_EVENTS:
        reason = f"the hook `{name}` failed and is set to block on failure: {why}"
        return HookResult(outcome, decision="deny", reason=reason, warning=reason)
    return HookResult(outcome, warning=f"hook `{name}` failed, continuing without it: {why}")


def _read_json(event: HookEvent, value: dict[str, Any]) -> HookResult:
    warning = _text(value.get("systemMessage"))
    if value.get("continue") is False:
        reason = _text(value.get("stopReason")) or "a hook stopped the agent"
        return HookResult("blocked", decision="deny", reason=reason, warning=warning or reason, stop=True)
    specific = value.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision: PermissionDecision | None = None
    reason = _text(value.get("reason"))
    legacy = value.get("decision")
    if legacy in ("block", "deny"):
        decision = "deny"
    elif legacy in ("approve", "allow"):
        decision = "allow"
    elif legacy is not None and not isinstance(legacy, dict):
        raise ValueError(f"decision must be block or approve, got {legacy!r}")
    permission = specific.get("permissionDecision")
    if permission is not None:
        if permission not in ("allow", "deny", "ask", "defer"):
            raise ValueError(f"permissionDecision must be allow, deny, ask or defer, got {permission!r}")
        decision = None if permission == "defer" else permission
        reason = _text(specific.get("permissionDecisionReason")) or reason
    behavior = specific.get("decision")
    if event == "PermissionRequest" and isinstance(behavior, dict):
        chosen = behavior.get("behavior")
        if chosen not in ("allow", "deny"):
            raise ValueError(f"decision.behavior must be allow or deny, got {chosen!r}")
        decision = chosen
        reason = _text(behavior.get("message")) or reason
    updated = specific.get("updatedInput")
    if updated is not None and not isinstance(updated, dict):
        raise ValueError("updatedInput must be an object")
    context = _text(specific.get("additionalContext"))
    output = _tool_output(specific) if event in FEEDBACK_EVENTS else None
    if decision == "deny" and event not in BLOCKING_EVENTS:
        # PostToolUse `decision: block`: the tool ran; the reason goes next to its result.
        context = "\n".join(filter(None, [reason, context]))
        return HookResult("blocked", context=context, warning=warning, updated_output=output)
    if decision == "deny" and not reason:
        reason = "blocked by a hook"
    outcome: Outcome = "blocked" if decision == "deny" else "success"
    return HookResult(outcome, decision, reason, context, updated, warning, updated_output=output)


def _tool_output(specific: dict[str, Any]) -> str | None:
    """`updatedToolOutput` (or Codex's `updatedMCPToolOutput`) as the text the model reads.

    Claude Code's shape follows the tool's (Bash: `{stdout, stderr, ...}`); plain text is taken too.
    """
    value = specific.get("updatedToolOutput", specific.get("updatedMCPToolOutput"))
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict):
        parts = [value.get(key) for key in ("stdout", "stderr", "output", "content")]
        texts = [part for part in parts if isinstance(part, str) and part]
        if texts:
            return "\n".join(texts)
    return json.dumps(value)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _short(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


@dataclass(frozen=True)
class Combined:
    """The runs of one event taken together: deny beats ask beats allow."""

    decision: PermissionDecision | None = None
    reason: str = ""
    contexts: tuple[str, ...] = ()
    updated_input: dict[str, Any] | None = None
    warnings: tuple[str, ...] = ()
    stop: bool = False
    results: tuple[HookResult, ...] = field(default=())
    updated_output: str | None = None

    @property
    def blocked(self) -> bool:
        """Whether any hook blocked."""
        return self.decision == "deny"

    @property
    def context(self) -> str:
        """All added context, in hook order."""
        return "\n\n".join(self.contexts)


_RANK: dict[PermissionDecision, int] = {"allow": 1, "ask": 2, "deny": 3}


def combine(results: tuple[HookResult, ...]) -> Combined:
    """Merge the results of one event's hooks (config order): deny > ask > allow, reasons of the winner.

    An `updatedInput` counts only from a hook that did not deny; the first one in config order wins.
    """
    decision: PermissionDecision | None = None
    for result in results:
        if result.decision is not None and (decision is None or _RANK[result.decision] > _RANK[decision]):
            decision = result.decision
    reasons = [r.reason for r in results if r.decision == decision and r.reason] if decision else []
    updated = next(
        (r.updated_input for r in results if r.updated_input is not None and r.decision != "deny"), None
    )
    return Combined(
        decision=decision,
        reason="; ".join(reasons),
        contexts=tuple(r.context for r in results if r.context),
        updated_input=None if decision == "deny" else updated,
        warnings=tuple(r.warning for r in results if r.warning),
        stop=any(r.stop for r in results),
        results=results,
        updated_output=next((r.updated_output for r in results if r.updated_output is not None), None),
    )


def cap_context(text: str, limit: int = CONTEXT_CAP) -> tuple[str, str]:
    """`text` cut to `limit` characters, and the rest (to be spooled; empty when nothing was cut)."""
    if len(text) <= limit:
        return text, ""
    return text[:limit], text[limit:]
