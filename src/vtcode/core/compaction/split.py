"""A newest protocol group larger than the tail target, split at tool-batch boundaries (SPEC 6.3).

Reference 6.4 keeps an oversized newest group whole and cuts every message of it to a preview. One long
autonomous turn (`vtcode exec "make the tests pass"`, thousands of tool calls) is a single group, so
there every older result in the turn became a few dozen tokens with no summary of what was done, and
the skeleton of previews alone outgrew the threshold after a few hundred round trips.

How this refines SPEC 6.3 ("whole protocol groups"): the seed's rule holds for every group that fits the
tail target; such a group is kept or summarized whole. A group larger than the target is split, never
previewed wholesale:

- its user message stays verbatim (the turn's request; the anchor of the tail);
- a batch is an assistant message with tool calls plus all their results (any other message is a batch
  of its own); batches are indivisible;
- the newest whole batches that fit the target beside the user message stay verbatim;
- the older batches are summarized with the older prefix (the summarizer also reads the user message, so
  it knows what they were for);
- bounded previews remain only for a single newest batch that alone does not fit beside the user message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from vtcode.core.compaction.groups import bounded_group, group_ranges, valid_prefix_len
from vtcode.core.tokens import TextCounter
from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage

Estimate = Callable[[Message], int]


class GroupSplit(msgspec.Struct, frozen=True):
    """`summarized` (older batches) goes to the summary; `kept` (user message, newest batches) stays.

    `previewed` is set when the newest batch alone did not fit and was cut to previews.
    """

    summarized: tuple[Message, ...]
    kept: tuple[Message, ...]
    previewed: bool


def batch_ranges(group: Sequence[Message]) -> list[range]:
    """The indivisible batches of a group after its user message (index 0), oldest first.

    An assistant message with calls takes every tool result that follows it; a result with no call
    before it in the group (a legacy orphan) joins the batch before it, so no result is ever parted
    from a call it may answer.
    """
    batches: list[range] = []
    index = 1
    while index < len(group):
        message = group[index]
        end = index + 1
        if isinstance(message, AssistantMessage) and message.tool_calls:
            while end < len(group) and isinstance(group[end], ToolResultMessage):
                end += 1
        elif isinstance(message, ToolResultMessage) and batches:
            batches[-1] = range(batches[-1].start, end)
            index = end
            continue
        batches.append(range(index, end))
        index = end
    return batches


def split_group(group: Sequence[Message], estimate: Estimate, target: int, count: TextCounter) -> GroupSplit:
    """Split `group` (a user message and its complete batches) so that what is kept fits `target`."""
    user = group[0]
    batches = batch_ranges(group)
    used = estimate(user)
    keep_from = len(batches)
    for position in range(len(batches) - 1, -1, -1):
        tokens = sum(estimate(group[index]) for index in batches[position])
        if used + tokens > target:
            break
        used += tokens
        keep_from = position
    cut = batches[keep_from].start if keep_from < len(batches) else len(group)
    if keep_from > 0 and keep_from == len(batches):
        # Not even the newest batch fits beside the user message: it alone is previewed.
        newest = batches[-1]
        batch = group[newest.start : newest.stop]
        room = target - estimate(user)
        if room > 0:
            kept = (user, *bounded_group(batch, estimate, room, count))
        else:
            kept = tuple(bounded_group([user, *batch], estimate, target, count))
        return GroupSplit(summarized=tuple(group[1 : newest.start]), kept=kept, previewed=True)
    if not batches and estimate(user) > target:
        return GroupSplit(
            summarized=(), kept=tuple(bounded_group([user], estimate, target, count)), previewed=True
        )
    return GroupSplit(summarized=tuple(group[1:cut]), kept=(user, *group[cut:]), previewed=False)


def newest_batch_tokens(messages: Sequence[Message], estimate: Estimate) -> int:
    """The smallest tail worth planning: the newest group's user message and its newest whole batch."""
    ranges = group_ranges(messages)
    if not ranges:
        return 1
    last = ranges[-1]
    group = messages[last.start : last.start + valid_prefix_len(messages[last.start : last.stop])]
    batches = batch_ranges(group)
    newest = sum(estimate(group[index]) for index in batches[-1]) if batches else 0
    return estimate(group[0]) + newest
