"""The tool interface: a spec the model sees and an executor that returns data, never raises to the user."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from vtcode.protocol.events import FileChange
from vtcode.protocol.model import ToolSpec


@dataclass(frozen=True)
class ToolContext:
    """What a tool may know about where it runs; the workspace root travels as data (no chdir)."""

    workspace: Path
    # Maximum bytes of tool output returned to the model (head + tail beyond it).
    max_output_bytes: int = 40_000


@dataclass(frozen=True)
class ToolOutcome:
    """The result of one tool call as the model will see it, plus what the runtime records about it."""

    content: str
    is_error: bool = False
    # The model's copy when it is shorter than `content` (which events keep whole); None: `content`.
    model_content: str | None = None
    # Workspace-relative paths the call read, wrote or ran in (feeds instruction discovery).
    touched_paths: tuple[str, ...] = ()
    # Edits applied, for `file_change` items.
    changes: tuple[FileChange, ...] = ()
    # Exit code of a command, for `command_execution` items.
    exit_code: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def for_model(self) -> str:
        """The text the model sees of this result."""
        return self.content if self.model_content is None else self.model_content


class Tool(Protocol):
    """A model-callable tool."""

    @property
    def spec(self) -> ToolSpec:
        """Name, description and JSON Schema parameters."""
        ...

    @property
    def read_only(self) -> bool:
        """True when the tool never changes the workspace (such calls may run in parallel)."""
        ...

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Execute one call; failures are returned as `ToolOutcome(is_error=True)`."""
        ...
