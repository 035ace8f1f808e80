"""Planning a compaction and assembling its result: split, retain, bound (reference 5.2, 5.5, 6.6).

The runtime calls `plan_compaction`, obtains a summary (`SummaryRun` drives the model requests, or a
provider-native result goes through `normalize_native`), then `assemble` gives the new history.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import msgspec

from vtcode.core.compaction.groups import TailSelection, bounded_group, select_tail
from vtcode.core.compaction.retention import DEFAULT_RETAINED_USER_TOKENS, Retained, retain_user_messages
from vtcode.core.compaction.split import split_group
from vtcode.core.compaction.summary import SummaryBudget, summary_budget, summary_message
from vtcode.core.compaction.thresholds import (
    DEFAULT_SESSION_BUDGET,
    Thresholds,
    history_budget,
    tail_target,
    thresholds,
)
from vtcode.core.compaction.truncate import shorten
from vtcode.core.compaction.validity import lost_intent_ids, protocol_problems
from vtcode.core.tokens import MessageEstimator
from vtcode.protocol.messages import AssistantMessage, Message, SystemMessage, ToolResultMessage, UserMessage

# The most of the bounded budget a summary may keep when the whole result must shrink (reference 6.6).
SUMMARY_BOUND_TOKENS = 4_096


class Mode(enum.StrEnum):
    """Where the summary came from."""

    LOCAL = "local"
    FALLBACK = "fallback"
    NATIVE = "native"


class CompactionSettings(msgspec.Struct, frozen=True):
    """What the runtime knows about the model and config: capacity 0 means unknown."""

    capacity: int
    session_budget: int = DEFAULT_SESSION_BUDGET
    explicit_threshold: int | None = None
    retained_user_tokens: int = DEFAULT_RETAINED_USER_TOKENS
    workspace: str = "/"

    @property
    def thresholds(self) -> Thresholds:
        """Hard and soft thresholds of reference 2.3."""
        return thresholds(self.capacity, self.session_budget, self.explicit_threshold)

    @property
    def tail_target(self) -> int:
        """The continuity tail target for these thresholds (SPEC 6.3)."""
        return tail_target(self.thresholds.hard)


class CompactionPlan(msgspec.Struct, frozen=True):
    """The split of a history: summarized prefix, verbatim tail, dropped trailing call, summary budget.

    The transcript chunks are made by `SummaryRun`, only when a model summary is asked for: planning
    itself reads only cached estimates.
    """

    source: tuple[Message, ...]
    prefix: tuple[Message, ...]
    tail: tuple[Message, ...]
    dropped: tuple[Message, ...]
    selection: TailSelection | None
    retained: Retained
    budget: SummaryBudget
    tokens_before: int


class CompactionResult(msgspec.Struct, frozen=True):
    """The new history and the figures `thread.compacted` reports.

    Apply it only when `problems` is empty and `changed` is true (a history already all tail is left be).
    """

    messages: tuple[Message, ...]
    summary: str
    mode: Mode
    tokens_before: int
    tokens_after: int
    problems: tuple[str, ...] = msgspec.field(default=())

    changed: bool = True


def plan_compaction(
    messages: Sequence[Message],
    estimate: MessageEstimator,
    settings: CompactionSettings,
    *,
    tail_tokens: int | None = None,
) -> CompactionPlan:
    """Split `messages` into the prefix to summarize and the continuity tail, and chunk the prefix.

    `tail_tokens` (estimated tokens) replaces the settings' tail target: the runtime plans the tail in
    provider tokens and shrinks it when a compaction would not gain (SPEC 6.3, 6.6).
    """
    source = tuple(messages)
    target = settings.tail_target if tail_tokens is None else max(1, tail_tokens)
    selection = select_tail(source, estimate, target)
    prefix: tuple[Message, ...]
    tail: tuple[Message, ...]
    dropped: tuple[Message, ...] = ()
    retainable: tuple[Message, ...]
    if selection is None:
        prefix, tail = source, ()
        retainable = prefix
    elif selection.oversized:
        # One long turn: its older batches join the summary, its request and newest batches stay.
        split = split_group(source[selection.start : selection.end], estimate, target, estimate.count)
        older = source[: selection.start]
        retainable = older + split.summarized
        # The summarizer reads the turn's request before its older batches; it is kept in the tail,
        # so it is not retained a second time.
        anchor = (source[selection.start],) if split.summarized else ()
        prefix = older + anchor + split.summarized
        tail = split.kept
        dropped = source[selection.end :]
    else:
        prefix = source[: selection.start]
        tail = source[selection.start : selection.end]
        dropped = source[selection.end :]
        retainable = prefix
    budget = summary_budget(settings.capacity, estimate.count)
    return CompactionPlan(
        source=source,
        prefix=prefix,
        tail=tail,
        dropped=dropped,
        selection=selection,
        retained=retain_user_messages(retainable, estimate, settings.retained_user_tokens),
        budget=budget,
        tokens_before=estimate.total(source),
    )


def assemble(
    plan: CompactionPlan,
    summary: str,
    mode: Mode,
    estimate: MessageEstimator,
    settings: CompactionSettings,
) -> CompactionResult:
    """The compacted history: summary, retained user messages, verbatim tail; bounded to the window."""
    if not plan.prefix:
        # Nothing older than the tail: only a dropped trailing call can change.
        return _result(plan, plan.tail, "", mode, estimate)
    head: list[Message] = [summary_message(summary)]
    if plan.retained.block is not None:
        head.append(plan.retained.block)
    messages = _bounded(head, list(plan.tail), estimate, settings)
    return _result(plan, messages, summary, mode, estimate)


def normalize_native(
    output: Sequence[Message], plan: CompactionPlan, estimate: MessageEstimator, settings: CompactionSettings
) -> CompactionResult:
    """A provider-native compaction result through the same rules (reference 5.5).

    A trailing pending call is removed; the provider's own tail is re-selected; with no usable tail
    (no user message, only a summary or an opaque item, or a tail missing a steering-tagged message)
    the locally selected tail is appended. User
    messages of the prefix the provider did not keep verbatim come back in the retained block.
    """
    # Intent ids go back on echoed user messages before any of them is cut to a preview (matched by text).
    messages = _reattach_intents(answered_only(output), plan.source)
    target = settings.tail_target
    selection = select_tail(messages, estimate, target)
    if selection is not None and _keeps_tagged(messages[selection.start : selection.end], plan.tail):
        kept = messages[selection.start : selection.end]
        tail = bounded_group(kept, estimate, target, estimate.count) if selection.oversized else kept
        head, body = messages[: selection.start], tail
    else:
        # No usable tail: a summary only, an opaque item, or a tail that lost a steering message.
        head = messages[: selection.start] if selection is not None else messages
        body = list(plan.tail)
    present = {m.content for m in messages if isinstance(m, UserMessage)}
    missing = [m for m in plan.retained.kept if m.content not in present]
    if missing:
        block = retain_user_messages(missing, estimate, settings.retained_user_tokens).block
        if block is not None:
            head.append(block)
    summary = "\n".join(m.content for m in head if isinstance(m, SystemMessage))
    final = _reattach_intents(_bounded(head, body, estimate, settings), plan.source)
    return _result(plan, final, summary, Mode.NATIVE, estimate)


def answered_only(messages: Sequence[Message]) -> list[Message]:
    """`messages` without call batches that lack a result and without results that answer no call.

    Provider output is not trusted to be valid: a pending call (reference 5.5 step 1) or a partial batch
    anywhere would make every later request fail.
    """
    out: list[Message] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        index += 1
        if isinstance(message, ToolResultMessage):
            continue  # only reached for results that follow no call batch
        if not (isinstance(message, AssistantMessage) and message.tool_calls):
            out.append(message)
            continue
        ids = [call.id for call in message.tool_calls]
        results: list[Message] = []
        while index < len(messages) and isinstance(messages[index], ToolResultMessage):
            results.append(messages[index])
            index += 1
        answered = [r.call_id for r in results if isinstance(r, ToolResultMessage)]
        if "" not in ids and sorted(ids) == sorted(answered) and len(set(ids)) == len(ids):
            out += [message, *results]
    return out


def _keeps_tagged(provider_tail: Sequence[Message], local_tail: Sequence[Message]) -> bool:
    """Whether the provider's tail still holds every steering-tagged user message of the local tail.

    By intent id (`_reattach_intents` gave the provider's echoes theirs back), not by text: two steers with
    the same text and one echo would otherwise pass while the tail's own intent went to the older copy.
    """
    kept = {m.meta.intent_id for m in provider_tail if isinstance(m, UserMessage)}
    return all(
        message.meta.intent_id in kept
        for message in local_tail
        if isinstance(message, UserMessage) and message.meta.intent_id is not None
    )


def _reattach_intents(messages: Sequence[Message], source: Sequence[Message]) -> list[Message]:
    """Give provider-returned user messages back the intent ids their source messages carried.

    A provider echoes user text but not our metadata; matching is by text, in order, each source message
    used once, so two steers with the same text keep distinct ids.
    """
    present = {m.meta.intent_id for m in messages if m.meta.intent_id is not None}
    tagged: dict[str, list[UserMessage]] = {}
    for message in source:
        if isinstance(message, UserMessage) and message.meta.intent_id not in (None, *present):
            tagged.setdefault(message.content, []).append(message)
    out: list[Message] = []
    for message in messages:
        candidates = tagged.get(message.content) if isinstance(message, UserMessage) else None
        if isinstance(message, UserMessage) and message.meta.intent_id is None and candidates:
            out.append(msgspec.structs.replace(message, meta=candidates.pop(0).meta))
        else:
            out.append(message)
    return out


def _bounded(
    head: list[Message], tail: list[Message], estimate: MessageEstimator, settings: CompactionSettings
) -> list[Message]:
    """Fit `head + tail` into the history budget: shrink the head's texts first, then the tail."""
    budget = history_budget(settings.capacity)
    if budget is None or estimate.total(head) + estimate.total(tail) <= budget:
        return head + tail
    if estimate.total(tail) > budget // 2:
        tail = bounded_group(tail, estimate, budget // 2, estimate.count)
    room = max(0, budget - estimate.total(tail))
    share = max(8, min(SUMMARY_BOUND_TOKENS, room // max(1, len(head))))
    shrunk: list[Message] = [
        msgspec.structs.replace(m, content=shorten(m.content, share - 4, estimate.count))
        if isinstance(m, SystemMessage | UserMessage) and estimate(m) > share
        else m
        for m in head
    ]
    return shrunk + tail


def _result(
    plan: CompactionPlan,
    messages: Sequence[Message],
    summary: str,
    mode: Mode,
    estimate: MessageEstimator,
) -> CompactionResult:
    final = tuple(_keep_paths(messages, plan.source))
    problems = protocol_problems(final)
    problems += [f"intent {intent!r} of the tail was lost" for intent in lost_intent_ids(plan.tail, final)]
    return CompactionResult(
        messages=final,
        summary=summary,
        mode=mode,
        tokens_before=plan.tokens_before,
        tokens_after=estimate.total(final),
        problems=tuple(problems),
        changed=final != plan.source,
    )


def _keep_paths(messages: Sequence[Message], source: Sequence[Message]) -> list[Message]:
    """`messages` whose first message also carries the touched paths only replaced messages recorded.

    Instruction scope is rebuilt from `meta.paths` (core/touched_paths.py): summarizing the tool results
    that named a path away must not shrink it, so the summary message carries their union.
    """
    out = list(messages)
    if not out:
        return out
    kept = {path for message in out for path in message.meta.paths}
    missing: dict[str, None] = {}
    for message in source:
        for path in message.meta.paths:
            if path not in kept:
                missing[path] = None
    if missing:
        first = out[0]
        paths = tuple(dict.fromkeys((*first.meta.paths, *missing)))
        out[0] = msgspec.structs.replace(first, meta=msgspec.structs.replace(first.meta, paths=paths))
    return out
