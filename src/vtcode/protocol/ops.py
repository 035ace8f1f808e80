"""Operations a front end submits to a session (DESIGN.md section 2): the only way in."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from vtcode.protocol.events import ApprovalDecision
from vtcode.protocol.messages import ImagePart

# `queue` starts a turn after the running one (or at once when idle); `steer` is delivered inside the
# running turn at its next safe boundary (after the current tool batch, before the next model request).
InputMode = Literal["queue", "steer"]


class UserInput(msgspec.Struct, frozen=True, tag="user_input", forbid_unknown_fields=True):
    """Text from the user; `intent_id` identifies it through queueing, checkpointing and compaction.

    `images` go on the user message after the text (as images to a model that takes them, as notes to
    one that does not).
    """

    text: str
    mode: InputMode = "queue"
    intent_id: str | None = None
    images: tuple[ImagePart, ...] = ()


class Interrupt(msgspec.Struct, frozen=True, tag="interrupt", forbid_unknown_fields=True):
    """Cancel the running turn, keeping the history valid; `force` kills command groups without grace."""

    force: bool = False


class ApprovalAnswer(msgspec.Struct, frozen=True, tag="approval_answer", forbid_unknown_fields=True):
    """The user's answer to an `approval.requested` event."""

    request_id: str
    decision: ApprovalDecision
    reason: str = ""
    # With an allow: the arguments the call runs with instead (checked again against the deny rules).
    updated_arguments: dict[str, Any] | None = None


class CancelIntent(msgspec.Struct, frozen=True, tag="cancel_intent", forbid_unknown_fields=True):
    """Remove a pending intent before it is delivered (`intent.cancelled`, or a notice when too late)."""

    intent_id: str


class Pause(msgspec.Struct, frozen=True, tag="pause", forbid_unknown_fields=True):
    """Hold the session: a running turn stops at its next boundary, waiting input starts no turn."""


class Resume(msgspec.Struct, frozen=True, tag="resume", forbid_unknown_fields=True):
    """Release a hold (`Pause`, or the one an interrupt puts on input that was waiting for its turn)."""


class Compact(msgspec.Struct, frozen=True, tag="compact", forbid_unknown_fields=True):
    """Compact the history now (between turns)."""


class Shutdown(msgspec.Struct, frozen=True, tag="shutdown", forbid_unknown_fields=True):
    """Stop the session: interrupt a running turn, end command sessions, close the event stream."""


class RevokeGrant(msgspec.Struct, frozen=True, tag="revoke_grant", forbid_unknown_fields=True):
    """Take back an "allow for this session" answer: `kind` `tool` (a tool name) or `prefix` (a command
    prefix); later calls are asked about again."""

    kind: Literal["tool", "prefix"]
    value: str


Op = UserInput | Interrupt | ApprovalAnswer | CancelIntent | Pause | Resume | Compact | Shutdown | RevokeGrant
