"""The hook messages of vtcode's ACP extensions, one struct each: the `vtcode acp` agent
(`acp.client_hooks`) and the SDK's subprocess transport (`sdk.transport.acp_hooks`) encode and decode
them from the two ends. They carry the hook event and decision types of `core.hooks`, which
`protocol/` (below core) cannot import; the other extension messages are `protocol.acp_messages`.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from vtcode.core.hooks.model import HookEvent, OnFailure
from vtcode.core.hooks.outcome import HookResult

# The turn loop's boundaries a client may observe (no decision: their answer is only whether they raised).
Observer = Literal["pre_model_request", "after_tool_batch", "turn_end"]


class DeclaredHook(msgspec.Struct, frozen=True, rename="camel", forbid_unknown_fields=True):
    """One hook as the client declares it (`_meta.vtcode.hooks`): `event` a hook event (deciding) or an
    observer boundary; `id` is what `_vtcode/hook` names it by."""

    id: int
    event: HookEvent | Observer
    name: str
    matcher: str = ""
    timeout: float = 60.0
    on_failure: OnFailure = "allow"


class HookCallParams(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """`_vtcode/hook`: run one declared hook on `payload` (what a command hook reads on stdin, or the
    observed boundary's view)."""

    session_id: str = ""
    call_id: str = ""
    hook_id: int
    payload: dict[str, Any]


# Only what is said goes on the wire: an observer's answer is `{}`, a decision's `{"result": ...}`.
class HookAnswer(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """The client's answer: the hook's decision, or what it raised (`raised`: the exception's type)."""

    result: HookResult | None = None
    raised: str = ""
    message: str = ""


class TurnEndView(msgspec.Struct, frozen=True):
    """A `turn_end` observer's payload: how the turn ended (`error` as `protocol.error_fields` has it)."""

    turn: int = 0
    final_text: str | None = None
    error: dict[str, Any] | None = None
