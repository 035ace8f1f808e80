"""Thread events (SPEC section 2): the one stream the TUI, `exec`, `exec --json` and tests consume."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from vtcode.protocol.errors import FAILURE_KINDS
from vtcode.protocol.messages import Usage
from vtcode.protocol.model import ToolKind
from vtcode.protocol.plan import PlanStep
from vtcode.protocol.usage import UsageRow

EVENT_SCHEMA_VERSION = 1

FailureKind = Annotated[
    str,
    msgspec.Meta(
        description="why the turn or run failed, one of: " + ", ".join(FAILURE_KINDS) + " (empty: it did not)"
    ),
]
"""A `kind` field: any string decodes (older logs hold class names), the schema names the set."""


class _Item(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    id: str


class AgentMessageItem(_Item, frozen=True, tag="agent_message"):
    """Answer text from the model."""

    text: str = ""


class ReasoningItem(_Item, frozen=True, tag="reasoning"):
    """Reasoning text, shown apart from the answer."""

    text: str = ""


ItemStatus = Literal["in_progress", "completed", "failed", "declined"]

ParsedJson = Annotated[
    dict[str, Any] | list[Any] | None,
    msgspec.Meta(description="the string field beside it, parsed, when it holds a JSON object or array"),
]


class CommandExecutionItem(_Item, frozen=True, tag="command_execution"):
    """A shell command run by the agent, or a call on its running session (`action`: write, poll, wait,
    kill). `aggregated_output` is what the command printed (or why the call failed); `result` is the
    tool's whole JSON result; `session_id` names the command session. `result_json` is `result` parsed
    (in `exec --json` and SDK events only; events.jsonl keeps the string alone)."""

    command: str
    status: ItemStatus = "in_progress"
    aggregated_output: str = ""
    exit_code: int | None = None
    action: str | None = None
    session_id: str | None = None
    result: str | None = None
    result_json: ParsedJson = None


class FileChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One file touched by an edit."""

    path: str
    kind: Literal["add", "update", "delete", "move"]
    move_to: str | None = None
    # A unified diff of the change (text files; bounded), for front ends that show it.
    diff: str | None = None


class FileChangeItem(_Item, frozen=True, tag="file_change"):
    """An edit applied to the workspace; `message` says why it failed or was declined."""

    changes: tuple[FileChange, ...] = ()
    status: ItemStatus = "completed"
    message: str | None = None
    # The edit tool and the paths the call named (before it ran, or when it did not run).
    tool: str = ""
    paths: tuple[str, ...] = ()


class ToolCallItem(_Item, frozen=True, tag="tool_call"):
    """Any other tool call. `arguments_json` and `result_json` are `arguments` and `result` parsed when
    they hold a JSON object (or array, for the result), in `exec --json` and SDK events only."""

    name: str
    arguments: str = ""
    status: ItemStatus = "in_progress"
    result: str | None = None
    # Facts the tool reported besides its text (line counts, match counts, the search engine).
    details: dict[str, Any] | None = None
    arguments_json: dict[str, Any] | None = None
    result_json: ParsedJson = None


Item = AgentMessageItem | ReasoningItem | CommandExecutionItem | FileChangeItem | ToolCallItem


class _Event(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    schema_version: int = EVENT_SCHEMA_VERSION
    # Stamped by the session as the event leaves it: the turn it belongs to (None outside a turn) and
    # the time it was emitted (seconds since the epoch, from the session's clock).
    turn_id: str | None = None
    ts: float | None = None


class ThreadStarted(_Event, frozen=True, tag="thread.started"):
    """A session started or resumed."""

    thread_id: str = ""
    workspace: str = ""
    resumed: bool = False


class TurnStarted(_Event, frozen=True, tag="turn.started"):
    """A user turn began."""


class ItemStarted(_Event, frozen=True, tag="item.started"):
    """An item began."""

    item: Item | None = None


class ItemUpdated(_Event, frozen=True, tag="item.updated"):
    """An item changed while in progress."""

    item: Item | None = None


class ItemCompleted(_Event, frozen=True, tag="item.completed"):
    """An item finished."""

    item: Item | None = None


DeltaKind = Literal["text", "reasoning"]


class ItemDelta(_Event, frozen=True, tag="item.delta"):
    """A streamed fragment of an agent message or reasoning item (not written to events.jsonl)."""

    item_id: str = ""
    kind: DeltaKind = "text"
    delta: str = ""


class ApprovalRequested(_Event, frozen=True, tag="approval.requested"):
    """A tool call waits for the user; answer with the `approval_answer` operation and `request_id`.

    `session_prefix` is the command prefix an `allow_prefix` answer would allow for the rest of the
    session (empty when the call is not a command).
    """

    request_id: str = ""
    item_id: str = ""
    tool: str = ""
    kind: ToolKind = "command"
    display: str = ""
    reason: str = ""
    session_prefix: str = ""
    # What an edit would change, diffs included (bounded), so the user reviews it before answering.
    changes: tuple[FileChange, ...] = ()
    # The call's arguments as the tool would receive them (a JSON object); an answer may substitute them.
    arguments: str = ""


class PolicyShadowed(_Event, frozen=True, tag="policy.shadowed"):
    """A configured rule or the approval mode settled a call the program's permission callback would
    otherwise have been asked about (emitted only to sessions with a callback, once per rule and tool).

    `source` is `deny_rule`, `allow_rule` or `approval_mode`; `rule` the rule's text or the mode's name;
    `action` what it decided, `reason` the sentence the model read.
    """

    tool: str = ""
    kind: ToolKind = "command"
    source: Literal["deny_rule", "allow_rule", "approval_mode"] = "deny_rule"
    rule: str = ""
    action: Literal["allow", "deny"] = "deny"
    reason: str = ""


# `allow_tool` allows every later call of the same tool in this session; `allow_prefix` every later
# command that starts with the request's `session_prefix` (deny rules still win).
ApprovalDecision = Literal["allow_once", "allow_tool", "allow_prefix", "deny"]


class ApprovalResolved(_Event, frozen=True, tag="approval.resolved"):
    """A pending approval was answered (an interrupt while waiting counts as deny)."""

    request_id: str = ""
    decision: ApprovalDecision = "deny"
    reason: str = ""


CompactionTrigger = Literal["auto", "manual", "recovery"]


class ThreadCompacted(_Event, frozen=True, tag="thread.compacted"):
    """The history was compacted."""

    trigger: CompactionTrigger = "auto"
    before_messages: int = 0
    after_messages: int = 0
    before_tokens: int = 0
    after_tokens: int = 0
    artifact_path: str | None = None
    # Why it fired ("soft", "hard", "manual", "recovery") and where the summary came from ("local",
    # "fallback": the deterministic summary after a failed or empty model summary, "native").
    reason: str = ""
    mode: str = ""
    # What happened on the way (a re-chunked summary request, a fallback and its cause).
    notes: tuple[str, ...] = ()
    # Provider-reported prompt tokens per token of our estimate (1.0 until the provider reported any):
    # thresholds and the tail were planned with it. The token figures above are our estimates.
    calibration_ratio: float = 1.0
    # The verbatim tail planned, in estimated tokens; the next automatic compaction below the hard
    # threshold waits until the history has grown by a quarter of it. 0 when not known.
    tail_target_tokens: int = 0


class IntentQueued(_Event, frozen=True, tag="intent.queued"):
    """A steering intent was durably queued; `recovered` when found pending on resume."""

    intent_id: str = ""
    text: str = ""
    mode: Literal["queue", "steer"] = "queue"
    recovered: bool = False


class IntentCancelled(_Event, frozen=True, tag="intent.cancelled"):
    """A pending intent was removed before it was delivered."""

    intent_id: str = ""


class IntentApplied(_Event, frozen=True, tag="intent.applied"):
    """A steering intent's tagged user message was durably checkpointed."""

    intent_id: str = ""


class SessionPaused(_Event, frozen=True, tag="session.paused"):
    """The session holds: no turn starts and a running one waits at its next boundary until resumed.

    `reason` is `requested` (a `pause` operation) or `interrupted` (an interrupt held the input that was
    waiting for the interrupted turn, so a follow-up typed before Esc does not start by itself).
    """

    reason: Literal["requested", "interrupted"] = "requested"
    pending_intents: int = 0


class SessionResumed(_Event, frozen=True, tag="session.resumed"):
    """The hold ended: waiting input runs again, a held turn continues."""


class Notice(_Event, frozen=True, tag="notice"):
    """Something the user should know that is not an error (an unknown model's default window, a retry)."""

    level: Literal["info", "warning"] = "info"
    message: str = ""


class ToolsChanged(_Event, frozen=True, tag="tools.changed"):
    """The tools offered to the model change from the next request (an MCP server's tools joined, left
    or changed): the one announced change of the cached prompt prefix within a session."""

    source: str = ""
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    # How many tools the next request offers in all.
    tools: int = 0


HookSourceKind = Literal["user", "workspace", "import"]


class _HookEvent(_Event, frozen=True):
    """What every hook event says of its hook: the lifecycle event, where it is configured, its command."""

    event: str = ""
    source: HookSourceKind = "user"
    # The file the hook was configured in.
    source_path: str = ""
    command: str = ""


class HookStarted(_HookEvent, frozen=True, tag="hook.started"):
    """A lifecycle hook's command started for `event` (SPEC section 10)."""

    status_message: str = ""
    # The trust digest of a workspace or imported hook (empty for the user's own hooks).
    digest: str = ""


class HookCompleted(_HookEvent, frozen=True, tag="hook.completed"):
    """A lifecycle hook's command ended.

    `outcome` is `success`, `blocked`, `failed`, `timed_out` or `not_started`; `decision` what it said
    (`allow`, `deny`, `ask`), if anything; `message` the reason or warning shown for it.
    """

    outcome: str = "success"
    decision: str | None = None
    duration_ms: int = 0
    message: str = ""
    digest: str = ""


class HookSkipped(_HookEvent, frozen=True, tag="hook.skipped"):
    """A configured hook did not run: it is not trusted (run `vtcode hooks trust`), or it changed."""

    # Only hooks that need trust are skipped (redefined, the field keeps its place).
    source: HookSourceKind = "workspace"
    digest: str = ""
    reason: str = ""


class PlanUpdated(_Event, frozen=True, tag="plan.updated"):
    """The agent replaced its plan (`update_plan`); `dropped` are unfinished steps it left out."""

    plan: tuple[PlanStep, ...] = ()
    explanation: str = ""
    dropped: tuple[PlanStep, ...] = ()


class TurnCompleted(_Event, frozen=True, tag="turn.completed"):
    """The turn finished; `pending_intents` still wait (a headless run leaves them for `--resume`).

    `usage` counts the turn's own and its subagents' calls; `cost_usd` is what all the calls the turn
    made cost at list prices, compaction included (null: a model's price is unknown).
    """

    usage: Usage = Usage()
    pending_intents: int = 0
    cost_usd: float | None = None


class TurnFailed(_Event, frozen=True, tag="turn.failed"):
    """The turn failed; `kind` is one of `protocol.errors.FAILURE_KINDS`."""

    kind: FailureKind = ""
    message: str = ""
    hint: str = ""
    # The process exit code a headless front end should end with (SPEC section 2).
    exit_code: int = 1
    # What the turn's model calls used and cost before it failed (as `turn.completed` counts them).
    usage: Usage = Usage()
    cost_usd: float | None = None


class UsageSummary(_Event, frozen=True, tag="usage"):
    """What the model calls of a headless run used and cost, by source and model (just before
    `thread.completed`); `cost_usd` is null when a model's price is unknown (`unpriced`)."""

    scope: Literal["run", "session"] = "run"
    rows: tuple[UsageRow, ...] = ()
    requests: int = 0
    usage: Usage = Usage()
    api_ms: int = 0
    cost_usd: float | None = 0.0
    known_cost_usd: float = 0.0
    unpriced: tuple[str, ...] = ()
    prices_taken: str = ""


class ThreadCompleted(_Event, frozen=True, tag="thread.completed"):
    """A headless run ended (the last event of `vtcode exec`): how its last turn ended, the run's usage.

    `status` is completed, failed or interrupted; `kind` and `exit_code` are those of the last
    `turn.failed` (empty and 0 after success); `turns` counts the turns this run made.
    """

    thread_id: str = ""
    status: Literal["completed", "failed", "interrupted"] = "completed"
    kind: FailureKind = ""
    exit_code: int = 0
    turns: int = 0
    usage: Usage = Usage()


Event = (
    ThreadStarted
    | TurnStarted
    | ItemStarted
    | ItemUpdated
    | ItemCompleted
    | ItemDelta
    | ApprovalRequested
    | ApprovalResolved
    | PolicyShadowed
    | ThreadCompacted
    | IntentQueued
    | IntentApplied
    | IntentCancelled
    | SessionPaused
    | SessionResumed
    | Notice
    | ToolsChanged
    | HookStarted
    | HookCompleted
    | HookSkipped
    | PlanUpdated
    | TurnCompleted
    | TurnFailed
    | UsageSummary
    | ThreadCompleted
)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Event)


def encode_event(event: Event) -> bytes:
    """One JSON line (without the newline) for `exec --json` and events.jsonl."""
    return _encoder.encode(event)


def decode_event(line: bytes | str) -> Event:
    """Parse one JSON event line."""
    return _decoder.decode(line)
