"""What a configured hook is: its event, matcher, handler and where it came from.

Event names are Claude Code's (the de-facto standard, reference extensibility.md section 10); the
snake_case spellings of VT Code and the Gemini CLI names are accepted on input and mapped here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Literal, get_args

import msgspec

HookEvent = Literal[
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "Notification",
]
HOOK_EVENTS: tuple[HookEvent, ...] = get_args(HookEvent)
# Events whose matcher is compared with a tool name (the others match their own subject, or nothing).
TOOL_EVENTS: frozenset[HookEvent] = frozenset(
    {"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure"}
)

# Gemini CLI names (reference section 11.1), mapped on import.
GEMINI_EVENTS: dict[str, HookEvent] = {
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "BeforeAgent": "UserPromptSubmit",
    "AfterAgent": "Stop",
    "PreCompress": "PreCompact",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "Notification": "Notification",
}


def snake_case(event: HookEvent) -> str:
    """`PreToolUse` -> `pre_tool_use` (VT Code's spelling, accepted as an alias)."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in event).lstrip("_")


SNAKE_EVENTS: dict[str, HookEvent] = {snake_case(e): e for e in HOOK_EVENTS}

SourceKind = Literal["user", "workspace", "import"]
OnFailure = Literal["allow", "block"]

# Default timeouts in seconds (Claude Code's, reference section 1.8).
DEFAULT_TIMEOUT = 600.0
PROMPT_TIMEOUT = 30.0
SESSION_END_BUDGET = 1.5
SESSION_END_BUDGET_MAX = 60.0


class HookHandler(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One command to run: `args` given means exec form (no shell), else `command` is a shell line.

    It is also the `[[hooks.EVENT.hooks]]` table of vtcode.toml as written (SPEC section 10), so the
    settings schema uses this type; `type` and `async` are accepted there for peers' files.
    """

    type: Literal["command"] = "command"
    command: str
    # Given: exec form, the program started without a shell.
    args: tuple[str, ...] | None = None
    # Seconds; the default is the event's (600, UserPromptSubmit 30, SessionEnd a shared 1.5 budget).
    timeout: Annotated[float, msgspec.Meta(gt=0)] | None = None
    on_failure: OnFailure = "allow"
    # Accepted for Claude Code and Codex files; such a hook is still awaited like any other.
    async_: bool = msgspec.field(default=False, name="async")
    status_message: str | None = None
    # Claude Code's `if`: a permission rule (`Bash(git *)`) that narrows a tool hook to some calls.
    if_: str | None = msgspec.field(default=None, name="if")

    def timeout_for(self, event: HookEvent) -> float:
        """The handler's timeout, else the event's default."""
        if self.timeout is not None:
            return self.timeout
        return PROMPT_TIMEOUT if event == "UserPromptSubmit" else DEFAULT_TIMEOUT

    @property
    def display(self) -> str:
        """How the handler is shown to a person."""
        if self.args is None:
            return self.command
        return " ".join([self.command, *self.args])


class HookSource(msgspec.Struct, frozen=True):
    """Where a hook was written: the user's own file, a workspace file, or an imported peer file."""

    kind: SourceKind
    path: str

    @property
    def needs_trust(self) -> bool:
        """Workspace and imported hooks run only once the user trusted them by hash."""
        return self.kind != "user"


@dataclass(frozen=True)
class ConfiguredHook:
    """One handler under one event and matcher, with its source and trust digest."""

    event: HookEvent
    matcher: str
    handler: HookHandler
    source: HookSource
    digest: str = ""
    trusted: bool = True


class HookSet(msgspec.Struct, frozen=True):
    """Every configured hook of a session, trusted or not, in source order."""

    hooks: tuple[ConfiguredHook, ...] = ()

    def for_event(self, event: HookEvent) -> tuple[ConfiguredHook, ...]:
        """The hooks of one event, trusted or not."""
        return tuple(h for h in self.hooks if h.event == event)

    @property
    def untrusted(self) -> tuple[ConfiguredHook, ...]:
        """Hooks held back until the user trusts them."""
        return tuple(h for h in self.hooks if not h.trusted)

    def trusting(self, digests: frozenset[str]) -> HookSet:
        """The same hooks with those whose digest is in `digests` marked trusted (just recorded)."""
        return HookSet(
            tuple(h if h.trusted or h.digest not in digests else replace(h, trusted=True) for h in self.hooks)
        )

    @property
    def runnable(self) -> HookSet:
        """Only the trusted hooks."""
        return HookSet(tuple(h for h in self.hooks if h.trusted))

    def __bool__(self) -> bool:
        return bool(self.hooks)
