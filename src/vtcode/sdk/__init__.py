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

from typing import TYPE_CHECKING

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
    ThreadStarted,
    ToolCallItem,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
)
from vtcode.protocol.messages import Usage
from vtcode.runtime.hooks import AfterToolBatch, BeforeRequest, TurnEnd
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

if TYPE_CHECKING:
    from vtcode.store.paused_calls import PausedCall as PendingApproval

__all__ = [
    "AfterToolBatch",
    "AgentMessageItem",
    "Allow",
    "ApprovalRequest",
    "ApprovalRequested",
    "ApprovalResolved",
    "BeforeRequest",
    "CommandExecutionItem",
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
    "PostTool",
    "PreCompact",
    "PreTool",
    "ProviderError",
    "QueueFullError",
    "SchemaError",
    "Session",
    "SyncSession",
    "SyncTurn",
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
    "VtcodeError",
    "tool",
]


def __getattr__(name: str) -> object:
    # Loaded on use: `import vtcode.sdk` does not read the session store's modules.
    if name == "PendingApproval":
        from vtcode.store.paused_calls import PausedCall

        return PausedCall
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
