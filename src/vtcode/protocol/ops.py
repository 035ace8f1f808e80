"""Operations the runtime accepts from a front end."""

from __future__ import annotations

from typing import Literal

import msgspec


class UserTurn(msgspec.Struct, frozen=True, tag="user_turn", forbid_unknown_fields=True):
    """Start a turn with this user text."""

    text: str


SteerMode = Literal["queue", "steer"]


class Steer(msgspec.Struct, frozen=True, tag="steer", forbid_unknown_fields=True):
    """A follow-up for a running or stored session."""

    text: str
    intent_id: str
    mode: SteerMode = "queue"


class Interrupt(msgspec.Struct, frozen=True, tag="interrupt", forbid_unknown_fields=True):
    """Cancel the in-flight request or command, keeping the history valid."""


class Approve(msgspec.Struct, frozen=True, tag="approve", forbid_unknown_fields=True):
    """Allow a pending tool call."""

    call_id: str


class Deny(msgspec.Struct, frozen=True, tag="deny", forbid_unknown_fields=True):
    """Refuse a pending tool call; the reason goes to the model."""

    call_id: str
    reason: str = "denied by the user"


class Compact(msgspec.Struct, frozen=True, tag="compact", forbid_unknown_fields=True):
    """Compact the history now."""


class Shutdown(msgspec.Struct, frozen=True, tag="shutdown", forbid_unknown_fields=True):
    """Stop the session."""


Op = UserTurn | Steer | Interrupt | Approve | Deny | Compact | Shutdown
