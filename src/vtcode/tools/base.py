"""The tool interface: a spec the model sees and an executor that returns data, never raises to the user."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import msgspec

from vtcode.core.printable import printable, printable_value
from vtcode.exec.git_repo import GitAccess
from vtcode.exec.progress import ProgressSink
from vtcode.protocol.events import FileChange
from vtcode.protocol.messages import ImagePart
from vtcode.protocol.model import ToolKind, ToolSpec


class TextBuffers(Protocol):
    """Files as an editor holds them, unsaved changes included (ACP `fs/read_text_file`)."""

    async def read_text(self, path: Path) -> str | None:
        """The editor's text of `path` (absolute, already confined to the workspace); None: use the disk."""
        ...

    async def written(self, path: Path, text: str) -> None:
        """An edit tool wrote `text` to `path` (ACP `fs/write_text_file`): the editor's copy follows."""
        ...


class ToolContext(msgspec.Struct, frozen=True):
    """What a tool may know about where it runs; the workspace root travels as data (no chdir)."""

    workspace: Path
    # Maximum bytes of tool output returned to the model (head + tail beyond it).
    max_output_bytes: int = 40_000
    # Where a command's live output goes while the call waits on it (the runtime sets one per call).
    progress: ProgressSink | None = None
    # Where reading tools get a file's text before the disk (an editor's buffers), when a front end has one.
    buffers: TextBuffers | None = None
    # vtcode's own git for the search tools, pinned at session start (a fresh one per call when None).
    git: GitAccess | None = None
    # Where multi-file edits keep their crash journal (`patch_journal`); None: unjournaled.
    journal_dir: Path | None = None
    # The event item that shows this call (the runtime sets one per call).
    item_id: str = ""
    # The model's id of this call (the runtime sets one per call).
    call_id: str = ""
    # Folders added with `--add-dir`: the file tools accept absolute paths inside them as well.
    extra_roots: tuple[Path, ...] = ()
    # A command the user typed (`!cmd`) runs outside the OS sandbox. Only the runtime sets it, per
    # call; no tool argument can reach it, so the model cannot unconfine its own commands.
    unconfined: bool = False
    # A command the user typed (`!cmd`), confined or not: it gets no input (nobody types into it).
    typed_by_user: bool = False


class CallDescription(msgspec.Struct, frozen=True):
    """What a call will do, as the runtime needs to know it before running it.

    `display` is one line for people (a command line, a path); `subject` is what approvals judge: the
    command line of a command, the text typed into a session; `paths` are the workspace paths the call
    names.
    """

    display: str
    subject: str = ""
    paths: tuple[str, ...] = ()
    # For calls on a running command session: write, poll, wait or kill.
    action: str = ""


def path_call(arguments: dict[str, Any], key: str, *, default: str | None = None) -> CallDescription:
    """The description of a call that names one path in `arguments[key]` (as named, not resolved)."""
    raw = arguments.get(key)
    path = raw if isinstance(raw, str) and raw else default
    if path is None:
        return CallDescription(display="")
    return CallDescription(display=path, paths=(path,))


class ToolOutcome(msgspec.Struct, frozen=True):
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
    # For people and front ends, not the model: what a command printed (or why the call failed) ...
    display_output: str | None = None
    # ... and facts about the call (a command's session id, a search's engine and match count).
    extra: dict[str, Any] = msgspec.field(default_factory=dict)
    # Images for the model (an MCP tool's image content); `content` describes them too.
    images: tuple[ImagePart, ...] = ()

    @property
    def for_model(self) -> str:
        """The text the model sees of this result."""
        return self.content if self.model_content is None else self.model_content


def storable(outcome: ToolOutcome) -> ToolOutcome:
    """`outcome` with file-name bytes that are not UTF-8 made printable (`core.printable`).

    Tools keep such names exact (surrogate escapes) while they work; events, the session store and
    provider requests are UTF-8 JSON, which cannot carry a lone surrogate, so every outcome passes here.
    """
    return msgspec.structs.replace(
        outcome,
        content=printable(outcome.content),
        model_content=None if outcome.model_content is None else printable(outcome.model_content),
        touched_paths=tuple(printable(path) for path in outcome.touched_paths),
        changes=tuple(
            msgspec.structs.replace(
                change,
                path=printable(change.path),
                move_to=None if change.move_to is None else printable(change.move_to),
                diff=None if change.diff is None else printable(change.diff),
            )
            for change in outcome.changes
        ),
        display_output=None if outcome.display_output is None else printable(outcome.display_output),
        extra=printable_value(outcome.extra),
    )


class Tool(Protocol):
    """A model-callable tool."""

    @property
    def spec(self) -> ToolSpec:
        """Name, description and JSON Schema parameters."""
        ...

    @property
    def kind(self) -> ToolKind:
        """What its calls do; `read` calls never change anything and may run in parallel."""
        ...

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The display form, approval subject and paths of one call (arguments are unvalidated)."""
        ...

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """Execute one call; failures are returned as `ToolOutcome(is_error=True)`."""
        ...


@runtime_checkable
class NotesUnfinishedCalls(Protocol):
    """A tool with something to add to the result of its call that a stop cut short (`task`: which
    subagent was stopped and how to let it go on)."""

    def unfinished_note(self, call_id: str) -> str | None:
        """What the model should read after the stop's reason, or None."""
        ...


@runtime_checkable
class PreviewsChanges(Protocol):
    """An edit tool that can tell what a call would change before it runs (shown with its approval)."""

    def preview(
        self, arguments: dict[str, Any], workspace: Path, extra_roots: tuple[Path, ...] = ()
    ) -> tuple[FileChange, ...]:
        """The changes the call would make, diffs included, changing nothing; () when it would fail.

        `extra_roots` are the added folders (`--add-dir`) the call may edit too. Blocking (it reads
        files): the runtime calls it off the event loop.
        """
        ...
