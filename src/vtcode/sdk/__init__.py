"""Embed vtcode in a Python program: sessions in-process, tools as functions, typed events and results.

```python
import vtcode.sdk as vt

@vt.tool
def ticket(key: str) -> str:
    \"\"\"Return the title of an issue.\"\"\"
    return tracker[key]

async with await vt.Session.open(vt.Options(workspace=".", tools=[ticket])) as session:
    result = await session.run("summarise ABC-12")
```
"""

# Every public name is loaded at its first use (PEP 562): `import vtcode.sdk` alone costs about what
# `python -c pass` does, and a program pays for the runtime, msgspec and asyncio only once it uses them
# (providers and MCP later still: at `Session.open`). Type checkers read the imports below.
from __future__ import annotations

import sys

# Not `typing.TYPE_CHECKING`: importing `typing` alone costs more than the rest of this module (mypy and
# pyright treat any `TYPE_CHECKING` alike).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vtcode.protocol.errors import ConfigError, ProviderError, QueueFullError, VtcodeError
    from vtcode.protocol.events import (
        AgentMessageItem,
        ApprovalRequested,
        ApprovalResolved,
        CommandExecutionItem,
        Event,
        FileChangeItem,
        ItemCompleted,
        ItemDelta,
        ItemStarted,
        ItemUpdated,
        Notice,
        PolicyShadowed,
        ThreadCompacted,
        ThreadStarted,
        ToolCallItem,
        TurnCompleted,
        TurnFailed,
        TurnStarted,
    )
    from vtcode.protocol.messages import Usage
    from vtcode.protocol.usage import UsageReport, UsageRow
    from vtcode.runtime.hooks import AfterToolBatch, BeforeRequest, TurnEnd
    from vtcode.sdk.compaction import CompactionError
    from vtcode.sdk.hooks import Hooks
    from vtcode.sdk.options import Options
    from vtcode.sdk.output import OutputType
    from vtcode.sdk.permission import Allow, ApprovalRequest, Decision, Deny, PermissionCallback
    from vtcode.sdk.schema import SchemaError
    from vtcode.sdk.session import Session
    from vtcode.sdk.sync import SyncSession, SyncTurn
    from vtcode.sdk.tool import FunctionTool, ToolContext, ToolError, tool
    from vtcode.sdk.tool_hooks import HookResult, HookSpec, PostTool, PreCompact, PreTool
    from vtcode.sdk.transport import TransportError
    from vtcode.sdk.turn import TurnHandle, TurnResult, TurnStatus
    from vtcode.store.paused_calls import PausedCall as PendingApproval

# Where each public name lives; `__all__` below lists the same names (a test keeps them in step).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "vtcode.protocol.errors": ("ConfigError", "ProviderError", "QueueFullError", "VtcodeError"),
    "vtcode.protocol.events": (
        "AgentMessageItem",
        "ApprovalRequested",
        "ApprovalResolved",
        "CommandExecutionItem",
        "Event",
        "FileChangeItem",
        "ItemCompleted",
        "ItemDelta",
        "ItemStarted",
        "ItemUpdated",
        "Notice",
        "PolicyShadowed",
        "ThreadCompacted",
        "ThreadStarted",
        "ToolCallItem",
        "TurnCompleted",
        "TurnFailed",
        "TurnStarted",
    ),
    "vtcode.protocol.messages": ("Usage",),
    "vtcode.protocol.usage": ("UsageReport", "UsageRow"),
    "vtcode.runtime.hooks": ("AfterToolBatch", "BeforeRequest", "TurnEnd"),
    "vtcode.sdk.compaction": ("CompactionError",),
    "vtcode.sdk.hooks": ("Hooks",),
    "vtcode.sdk.options": ("Options",),
    "vtcode.sdk.output": ("OutputType",),
    "vtcode.sdk.permission": ("Allow", "ApprovalRequest", "Decision", "Deny", "PermissionCallback"),
    "vtcode.sdk.schema": ("SchemaError",),
    "vtcode.sdk.session": ("Session",),
    "vtcode.sdk.sync": ("SyncSession", "SyncTurn"),
    "vtcode.sdk.tool": ("FunctionTool", "ToolContext", "ToolError", "tool"),
    "vtcode.sdk.tool_hooks": ("HookResult", "HookSpec", "PostTool", "PreCompact", "PreTool"),
    "vtcode.sdk.transport": ("TransportError",),
    "vtcode.sdk.turn": ("TurnHandle", "TurnResult", "TurnStatus"),
}
# Public names that differ from their definition's: public name -> (module, name there).
_RENAMED = {"PendingApproval": ("vtcode.store.paused_calls", "PausedCall")}
_HOME = {name: (module, name) for module, names in _EXPORTS.items() for name in names} | _RENAMED


if not TYPE_CHECKING:  # hidden from type checkers, which would then accept any name as `Any`

    def __getattr__(name: str) -> Any:
        """Load a public name on first use and keep it (later lookups are plain attribute reads)."""
        home = _HOME.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        module, attribute = home
        value = getattr(__import__(module, fromlist=[attribute]), attribute)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    """The public names with what is loaded already."""
    return sorted({*globals(), *_HOME})


if TYPE_CHECKING:
    from types import ModuleType as _Module
else:
    _Module = type(sys)  # `types.ModuleType`, without importing `types`


class _Package(_Module):
    """Loading the submodule `vtcode.sdk.tool` binds it on the package under its own name, which would
    hide the `tool` decorator (eagerly imported, the decorator was bound after it): keep the decorator."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _HOME and isinstance(value, _Module):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = [
    "AfterToolBatch",
    "AgentMessageItem",
    "Allow",
    "ApprovalRequest",
    "ApprovalRequested",
    "ApprovalResolved",
    "BeforeRequest",
    "CommandExecutionItem",
    "CompactionError",
    "ConfigError",
    "Decision",
    "Deny",
    "Event",
    "FileChangeItem",
    "FunctionTool",
    "HookResult",
    "HookSpec",
    "Hooks",
    "ItemCompleted",
    "ItemDelta",
    "ItemStarted",
    "ItemUpdated",
    "Notice",
    "Options",
    "OutputType",
    "PendingApproval",
    "PermissionCallback",
    "PolicyShadowed",
    "PostTool",
    "PreCompact",
    "PreTool",
    "ProviderError",
    "QueueFullError",
    "SchemaError",
    "Session",
    "SyncSession",
    "SyncTurn",
    "ThreadCompacted",
    "ThreadStarted",
    "ToolCallItem",
    "ToolContext",
    "ToolError",
    "TransportError",
    "TurnCompleted",
    "TurnEnd",
    "TurnFailed",
    "TurnHandle",
    "TurnResult",
    "TurnStarted",
    "TurnStatus",
    "Usage",
    "UsageReport",
    "UsageRow",
    "VtcodeError",
    "tool",
]
