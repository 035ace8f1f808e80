"""Approval decisions for tool calls: allow, ask the user, or deny, with a reason the model can read.

| kind          | read-only | ask                 | auto-edit           | full-auto |
| ------------- | --------- | ------------------- | ------------------- | --------- |
| read          | allow     | allow               | allow               | allow     |
| edit          | deny      | ask                 | allow               | allow     |
| command       | deny      | allow rule, or ask  | allow rule, or ask  | allow     |
| session_input | allow, unless the typed text holds a command a deny rule names                |
| external      | allow rule, else deny | allow rule, or ask | allow rule, or ask | allow |

`web_fetch` is external, approved per domain (`core.web_rules`: `web_fetch(domain:x)` rules, headless
runs need an allow rule even in full-auto).

Rules name external tools by their model-facing name: `mcp__SERVER__TOOL`, or a glob such as
`mcp__SERVER__*`; only rules starting with `mcp__` are matched against tool names (others are command
rules).

A deny rule wins over everything, full-auto included. What the user allowed for the rest of a session
(`SessionGrants`: a tool, or a command prefix) turns an "ask" into "allow", never a "deny". Rules come
only from config and flags: nothing a
workspace file says changes a decision (SPEC section 5, decision 9). Headless runs cannot ask, so
`resolve_headless` (applied by `decide` for a headless policy) turns "ask" into "deny" with a reason that
says how to allow the call.
"""

from __future__ import annotations

import fnmatch
from typing import Literal

import msgspec

from vtcode.protocol.model import ToolKind

ApprovalMode = Literal["read-only", "ask", "auto-edit", "full-auto"]
APPROVAL_MODES: tuple[ApprovalMode, ...] = ("read-only", "ask", "auto-edit", "full-auto")
Action = Literal["allow", "ask", "deny"]

_SHOWN_COMMAND_CHARS = 200
_TOOL_RULE_PREFIX = "mcp__"


class ApprovalPolicy(msgspec.Struct, frozen=True):
    """The approval mode and `[approvals]` rules from config and flags; `headless` when nobody can answer.

    Rules are word prefixes (`git status`) or, with `*?[`, globs over a whole simple command.
    """

    mode: ApprovalMode
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    headless: bool = False


class Decision(msgspec.Struct, frozen=True):
    """The verdict on one tool call; `reason` is a sentence for the model (and the user).

    `headless_reason` is the reason to give instead when an "ask" cannot be put to anyone.
    """

    action: Action
    reason: str
    headless_reason: str = ""


class SessionGrants(msgspec.Struct, frozen=True):
    """What the user allowed for the rest of a session: every call of these tools, and commands that
    start with these prefixes (word prefixes, as `[approvals] allow` rules)."""

    tools: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()

    def listed(self) -> tuple[Grant, ...]:
        """Every grant, tools first (by name), then prefixes in the order they were given."""
        return (
            *(Grant("tool", name) for name in sorted(self.tools)),
            *(Grant("prefix", prefix) for prefix in self.prefixes),
        )

    def with_grant(self, grant: Grant) -> SessionGrants:
        """These grants and `grant` (given twice, it is listed once)."""
        if grant.kind == "tool":
            return SessionGrants(tools=self.tools | {grant.value}, prefixes=self.prefixes)
        if grant.value in self.prefixes:
            return self
        return SessionGrants(tools=self.tools, prefixes=(*self.prefixes, grant.value))

    def without(self, grant: Grant) -> SessionGrants:
        """These grants less `grant` (unchanged when it was not given)."""
        if grant.kind == "tool":
            return SessionGrants(tools=self.tools - {grant.value}, prefixes=self.prefixes)
        return SessionGrants(tools=self.tools, prefixes=tuple(p for p in self.prefixes if p != grant.value))


GrantKind = Literal["tool", "prefix"]


class Grant(msgspec.Struct, frozen=True):
    """One "allow for this session" answer: every call of a tool, or commands starting with a prefix."""

    kind: GrantKind
    value: str

    def describe(self) -> str:
        """How a person reads it (`/permissions`, `/status`)."""
        if self.kind == "tool":
            return f"every {self.value} call"
        return f"commands starting with `{self.value}`"


# The default of `decide`: nothing granted for the session (a frozen value, shared).
NO_GRANTS = SessionGrants()


def decide(
    policy: ApprovalPolicy,
    kind: ToolKind,
    subject: str = "",
    *,
    tool: str = "",
    grants: SessionGrants = NO_GRANTS,
) -> Decision:
    """Decide whether a call of `kind` may run under `policy`.

    `subject` is the command line of a command, or the text typed into a session. `tool` names the call
    in reasons. Headless policies never return "ask".
    """
    match kind:
        case "read":
            decision = Decision("allow", f"{_subject(tool, 'a read')} is allowed in every approval mode")
        case "edit":
            decision = _decide_edit(policy.mode, _subject(tool, "a file edit"))
        case "command":
            decision = _decide_command(policy, subject)
        case "session_input":
            decision = decide_input(policy, subject, tool=tool or "write_stdin")
        case "external" if tool == "web_fetch":
            from vtcode.core.web_rules import decide_web_fetch  # per-domain rules (its own module)

            decision = decide_web_fetch(policy, subject, grants)
        case "external":
            decision = _decide_external(policy, tool, _subject(tool, "an external tool"))
    decision = _apply_grants(decision, kind, subject, tool, grants)
    return resolve_headless(decision) if policy.headless else decision


# Programs whose first argument names what they do (`git push` is not `git status`): an "allow for this
# session" answer covers the program with that subcommand, for any other program the program itself.
_SUBCOMMAND_PROGRAMS = frozenset(
    {
        "git", "npm", "pnpm", "yarn", "bun", "cargo", "go", "docker", "podman", "kubectl", "pip", "pip3",
        "uv", "poetry", "gh", "dotnet", "mvn", "gradle", "make", "just", "brew", "apt", "apt-get",
        "systemctl", "terraform", "helm", "rustup", "conda", "hatch", "tox", "nox", "deno",
    }
)  # fmt: skip


def session_prefix(command: str) -> str:
    """The prefix an "allow for this session" answer covers.

    `git commit -m x` gives `git commit`, `pytest -q tests` gives `pytest`; a line of several commands
    or one that cannot be parsed gives "" (only a one-time answer makes sense for it).
    """
    from vtcode.core.command_match import split_command

    commands = split_command(command)
    if not commands or len(commands) != 1 or not commands[0].words:
        return ""
    words = commands[0].words
    second = words[1] if len(words) > 1 else ""
    if words[0] in _SUBCOMMAND_PROGRAMS and second and not second.startswith("-"):
        return f"{words[0]} {second}"
    return words[0]


def _apply_grants(
    decision: Decision, kind: ToolKind, subject: str, tool: str, grants: SessionGrants
) -> Decision:
    if decision.action != "ask":
        return decision
    from vtcode.core.command_match import match_allow

    if tool and tool in grants.tools:
        return Decision("allow", f"`{tool}` was allowed for this session by the user")
    if kind == "command" and grants.prefixes:
        allowed = match_allow(subject, grants.prefixes)
        if allowed.allowed:
            names = ", ".join(f"`{rule}`" for rule in allowed.rules)
            return Decision(
                "allow", f"command `{_shown(subject)}` starts with {names}, allowed for this session"
            )
    return decision


def rule_denial(call: str, rule: str) -> Decision:
    """The denial of `call`, which the deny rule `rule` names: final in every approval mode."""
    return Decision(
        "deny",
        f"{call} matches the deny rule `{rule}` in the [approvals] config, which blocks it in every "
        "approval mode; do not retry it, find another way or ask the user",
    )


def rule_allowance(call: str, rule: str) -> Decision:
    """The allowance of `call`, which the allow rule `rule` names."""
    return Decision("allow", f"{call} matches the [approvals] allow rule `{rule}`")


def tool_rule(tool: str, rules: tuple[str, ...]) -> str | None:
    """The first `mcp__...` rule (a name or a glob) that names `tool`, or None."""
    for rule in rules:
        if rule.startswith(_TOOL_RULE_PREFIX) and fnmatch.fnmatchcase(tool, rule):
            return rule
    return None


def _decide_external(policy: ApprovalPolicy, tool: str, call: str) -> Decision:
    mode = policy.mode
    denied_by = tool_rule(tool, policy.deny)
    if denied_by is not None:
        return rule_denial(call, denied_by)
    if mode == "full-auto":
        return Decision("allow", f"{call} is allowed in full-auto mode")
    allowed_by = tool_rule(tool, policy.allow)
    if allowed_by is not None:
        return rule_allowance(call, allowed_by)
    match mode:
        case "read-only":
            return Decision(
                "deny",
                f"{call} is not allowed in read-only mode without an [approvals] allow rule: vtcode "
                "cannot tell what it changes",
            )
        case "ask" | "auto-edit":
            return Decision(
                "ask",
                f"{call} needs the user's approval in {mode} mode",
                headless_reason=f"{call} is not allowed in {mode} mode without the user's approval; "
                f"ask the user to rerun with --approval full-auto or to add `{tool or call}` to "
                "[approvals] allow",
            )
        case "full-auto":  # pragma: no cover - returned above
            return Decision("allow", f"{call} is allowed in full-auto mode")


def resolve_headless(decision: Decision) -> Decision:
    """For runs nobody can answer (`vtcode exec`): "ask" becomes "deny", saying how to allow it."""
    if decision.action != "ask":
        return decision
    reason = decision.headless_reason or (f"{decision.reason}; nobody can approve it in a headless run")
    return Decision("deny", reason)


def _subject(tool: str, kind: str) -> str:
    return f"`{tool}` ({kind})" if tool else kind


def _decide_edit(mode: ApprovalMode, edit: str) -> Decision:
    match mode:
        case "read-only":
            return Decision(
                "deny",
                f"{edit} is not allowed in read-only mode; describe the change instead, or ask the "
                "user to rerun with --approval auto-edit",
            )
        case "ask":
            return Decision(
                "ask",
                f"{edit} needs the user's approval in ask mode",
                headless_reason=f"{edit} is not allowed in ask mode without the user's approval; "
                "ask the user to rerun with --approval auto-edit",
            )
        case "auto-edit" | "full-auto":
            return Decision("allow", f"{edit} is allowed in {mode} mode")


def _decide_command(policy: ApprovalPolicy, command: str) -> Decision:
    # The shell-line parser and rule matcher load with the first command (start-up time).
    from vtcode.core.command_match import dynamic_program, match_allow, match_deny

    mode = policy.mode
    shown = _shown(command)
    denied_by = match_deny(command, policy.deny)
    if denied_by is not None:
        return rule_denial(f"command `{shown}`", denied_by)
    dynamic = dynamic_program(command) if policy.deny and mode != "read-only" else None
    if dynamic is not None:
        # Deny rules cannot be checked against a program chosen at run time: a person decides.
        return Decision(
            "ask",
            f"command `{shown}` needs the user's approval: its part `{dynamic}` computes the program "
            "it runs, so the [approvals] deny rules cannot be checked",
            headless_reason=f"command `{shown}` is not run: its part `{dynamic}` computes the program it "
            "runs, so the [approvals] deny rules cannot be checked; name the program directly",
        )
    if mode == "full-auto":
        return Decision("allow", f"command `{shown}` is allowed: full-auto mode runs commands")
    if mode == "read-only":
        return Decision(
            "deny",
            f"command `{shown}` is not allowed in read-only mode, which runs no commands; "
            "ask the user to rerun with --approval ask, auto-edit or full-auto",
        )
    allowed = match_allow(command, policy.allow)
    if allowed.allowed:
        names = ", ".join(f"`{rule}`" for rule in allowed.rules)
        plural = "s" if len(allowed.rules) > 1 else ""
        return Decision("allow", f"command `{shown}` matches the [approvals] allow rule{plural} {names}")
    return Decision(
        "ask",
        f"command `{shown}` needs the user's approval in {mode} mode: "
        + (allowed.blocker or "no [approvals] allow rule matches it"),
        headless_reason=f"command `{shown}` is not allowed in {mode} mode without an allow rule"
        + (f" ({allowed.blocker})" if allowed.blocker else "")
        + "; ask the user to rerun with --approval full-auto or add an [approvals] allow rule",
    )


def _shown(command: str) -> str:
    if len(command) <= _SHOWN_COMMAND_CHARS:
        return command
    return command[: _SHOWN_COMMAND_CHARS - 1] + "…"


def decide_input(
    policy: ApprovalPolicy, chars: str, *, tool: str = "write_stdin", pending: str = ""
) -> Decision:
    """Input typed into a running session: allowed, unless a line it completes runs a denied command.

    The session's own command was approved when it started, but a shell session would otherwise let
    denied commands through as typed input. `pending` is the unfinished line typed before (input may
    come in pieces), so `rm -` then `rf x` is checked as `rm -rf x`.
    """
    if not chars:
        return Decision("allow", f"a poll, wait or kill by `{tool}` runs nothing new")
    from vtcode.core.command_match import dynamic_program, match_deny
    from vtcode.core.typed_input import type_input

    typed = type_input(pending, chars)
    # The unfinished tail runs nothing yet, but refusing it now keeps it out of the shell's line.
    for line in (*typed.completed, *typed.unfinished):
        denied_by = match_deny(line, policy.deny)
        if denied_by is not None:
            return Decision(
                "deny",
                f"input `{_shown(line)}` to `{tool}` runs a command matching the deny rule "
                f"`{denied_by}`, which blocks it in every approval mode",
            )
        if policy.deny and line in typed.completed and dynamic_program(line) is not None:
            return Decision(
                "deny",
                f"input `{_shown(line)}` to `{tool}` runs a program computed at run time, which the "
                "[approvals] deny rules cannot check; name the program directly",
            )
    return Decision("allow", f"input to `{tool}` goes to an already approved session")
