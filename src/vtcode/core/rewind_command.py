"""The words after `/rewind` (TUI and ACP): list, preview or apply a rewind, or redo."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RewindAction = Literal["list", "preview", "apply"]
SCOPES = {"code": "code", "conversation": "conversation", "both": "both", "all": "both", "files": "code"}
USAGE = "/rewind [TURN [code|conversation|both] [yes] [force]]  ·  /redo [yes]"


@dataclass(frozen=True)
class RewindCommand:
    """What `/rewind ARGS` asks for."""

    action: RewindAction
    turn: int | None = None
    scope: Literal["code", "conversation", "both"] = "both"
    force: bool = False


def parse_rewind(argument: str) -> RewindCommand:
    """Read `TURN [scope] [yes] [force]` (nothing: list); raises `ValueError` with the usage."""
    words = argument.lower().split()
    if not words:
        return RewindCommand("list")
    head, rest = words[0], words[1:]
    if not head.isdigit() or int(head) < 1:
        raise ValueError(f"not a turn number: {head!r} (usage: {USAGE})")
    scope: Literal["code", "conversation", "both"] = "both"
    apply = force = False
    for word in rest:
        if word in SCOPES:
            scope = (
                "code"
                if SCOPES[word] == "code"
                else "conversation"
                if SCOPES[word] == "conversation"
                else "both"
            )
        elif word in ("yes", "y", "apply"):
            apply = True
        elif word == "force":
            apply = force = True
        else:
            raise ValueError(f"unknown word {word!r} (usage: {USAGE})")
    return RewindCommand("apply" if apply else "preview", int(head), scope, force)
