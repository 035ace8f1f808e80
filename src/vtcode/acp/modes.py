"""vtcode's approval modes offered as ACP session modes (`session/set_mode`)."""

from __future__ import annotations

from acp.schema import SessionMode, SessionModeState

from vtcode.core.approvals import APPROVAL_MODES, ApprovalMode

_DESCRIPTIONS: dict[ApprovalMode, tuple[str, str]] = {
    "read-only": ("Read only", "Reads and searches; no edits, no commands"),
    "ask": ("Ask", "Asks before edits and commands"),
    "auto-edit": ("Auto edit", "Edits without asking; asks before commands"),
    "full-auto": ("Full auto", "Edits and runs commands without asking (deny rules still apply)"),
}


def mode_state(current: ApprovalMode) -> SessionModeState:
    """The modes an editor may offer, and the current one."""
    return SessionModeState(
        current_mode_id=current,
        available_modes=[
            SessionMode(id=mode, name=_DESCRIPTIONS[mode][0], description=_DESCRIPTIONS[mode][1])
            for mode in APPROVAL_MODES
        ],
    )


def approval_mode(mode_id: str) -> ApprovalMode | None:
    """The approval mode an ACP mode id names (None: not one of ours)."""
    for mode in APPROVAL_MODES:
        if mode == mode_id:
            return mode
    return None
