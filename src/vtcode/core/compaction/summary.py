"""The summary request: fixed instructions, the prefix as a transcript, chunks that fit, and the checks.

SPEC 6.4: the summary has a fixed structure; a transcript that would not fit the provider is summarized
in chunks, each request carrying the summary so far, so no compaction request exceeds the window. The
request has no tools and ends with the user message that asks for the summary.

Summaries never nest: the previous compaction's summary is handed to the summarizer as the summary so
far (never as a transcript entry), and the retained block of the user's words is left out of the
transcript (the previous summary already took it into account, and the new history retains it again).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import msgspec

from vtcode.core.compaction.retention import RETAINED_HEADER
from vtcode.core.compaction.truncate import shorten
from vtcode.core.images import with_image_notes
from vtcode.core.tokens import MESSAGE_OVERHEAD_TOKENS, TextCounter
from vtcode.protocol.messages import AssistantMessage, Message, SystemMessage, ToolResultMessage, UserMessage

SUMMARY_PREFIX = "Previous conversation summary:\n"
SECTIONS = (
    "Goal",
    "Constraints and user corrections",
    "Decisions",
    "Files touched",
    "Work done",
    "Open items",
    "Failed approaches",
)
INSTRUCTIONS = (
    "You are compacting the earlier part of a coding session so the work can continue seamlessly. "
    "Write a summary of the transcript below in exactly this markdown structure, every heading present "
    "(write 'none' under a heading with nothing to say):\n\n"
    + "\n".join(f"## {name}" for name in SECTIONS)
    + "\n\nRules:\n"
    "- Goal: the task and its acceptance criteria as the user stated them.\n"
    "- Constraints and user corrections: quote the user's own words verbatim, one bullet each.\n"
    "- Decisions: decision: reason.\n"
    "- Files touched: every file changed (patched, written, or changed by a command), one bullet each; "
    "then one line 'Files read (not changed): ' naming at most the 20 most recent files only read, "
    "and how many more.\n"
    "- Work done: what was changed and verified, with test results and error messages.\n"
    "- Open items: what remains, in order.\n"
    "- Failed approaches: what was tried and did not work, and why, so it is not retried.\n"
    "Answer with the summary only."
)
CONTINUATION = (
    "The transcript is long and comes in parts. Here is the summary of the parts before this one; "
    "merge it with this part into one summary in the same structure:"
)
# A single rendered message never takes more than this of a request: a 50,000-token tool output is
# summarized from its head, the rest is in the archive.
MESSAGE_CAP_TOKENS = 4_000
# The most of a previous chunk's summary carried into the next request.
SUMMARY_OUTPUT_TOKENS = 4_096
_ARGS_PREVIEW_CHARS = 200


def is_summary_message(message: Message) -> bool:
    """Whether `message` opens a compacted history (the summary of an earlier compaction)."""
    return isinstance(message, SystemMessage) and message.content.startswith(SUMMARY_PREFIX)


def previous_summary(messages: Sequence[Message]) -> str | None:
    """The body of the newest summary message in `messages`, if any."""
    for message in reversed(messages):
        if is_summary_message(message):
            return message.content[len(SUMMARY_PREFIX) :].strip() or None
    return None


def transcript_messages(messages: Sequence[Message]) -> list[Message]:
    """`messages` without earlier summaries and retained blocks: what is new to a summarizer."""
    return [
        message
        for message in messages
        if not is_summary_message(message)
        and not (isinstance(message, SystemMessage) and message.content.startswith(RETAINED_HEADER))
    ]


def render_message(message: Message, count: TextCounter) -> str:
    """One transcript entry: `[role]` then the text; calls by name and a short argument preview."""
    match message:
        case UserMessage(content=text, images=images):
            # The summarizer sees that images were there; the images themselves are not resent.
            body, role = with_image_notes(text, images), "user"
        case SystemMessage(content=text):
            body, role = text, "system"
        case AssistantMessage(content=text, tool_calls=calls):
            lines = [text.strip()] if text.strip() else []
            lines += [f"-> {call.name}({_args_preview(call.arguments)})" for call in calls]
            body, role = "\n".join(lines), "assistant"
        case ToolResultMessage(name=name, content=text, is_error=is_error):
            body, role = text, f"tool {name}{' error' if is_error else ''}"
    body = body.strip()
    if not body:
        return ""
    return f"[{role}]\n{shorten(body, MESSAGE_CAP_TOKENS, count)}"


def _args_preview(arguments: str) -> str:
    try:
        compact = json.dumps(json.loads(arguments or "{}"), separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        compact = arguments
    return compact if len(compact) <= _ARGS_PREVIEW_CHARS else compact[:_ARGS_PREVIEW_CHARS] + "…"


class Chunk(msgspec.Struct, frozen=True):
    """A transcript part and the index, in the prefix, of its first message."""

    text: str
    start: int


def chunk_transcript(
    prefix: Sequence[Message], count: TextCounter, chunk_tokens: int, offset: int = 0
) -> list[Chunk]:
    """The rendered prefix split, at message boundaries, into transcripts of at most `chunk_tokens`."""
    chunks: list[Chunk] = []
    current: list[str] = []
    start = offset
    used = 0
    for index, message in enumerate(prefix, start=offset):
        entry = render_message(message, count)
        if not entry:
            continue
        cost = count(entry) + 2
        if cost > chunk_tokens:
            entry = shorten(entry, max(1, chunk_tokens - 2), count)
            cost = count(entry) + 2
        if current and used + cost > chunk_tokens:
            chunks.append(Chunk("\n\n".join(current), start))
            current, used = [], 0
        if not current:
            start = index
        current.append(entry)
        used += cost
    if current:
        chunks.append(Chunk("\n\n".join(current), start))
    return chunks


class SummaryBudget(msgspec.Struct, frozen=True):
    """Tokens one summary request may take, the share of the summary so far, and the transcript chunk."""

    request_tokens: int
    previous_summary_tokens: int
    chunk_tokens: int


def summary_budget(capacity: int, count: TextCounter, *, default_budget: int = 160_000) -> SummaryBudget:
    """The request budget: the provider's capacity (160,000 when unknown) less room for the answer.

    The chunk gets what remains after the instructions, the continuation note and the summary so far, so
    every request of a chunked summary stays inside the budget.
    """
    window = capacity if capacity > 0 else default_budget
    request = max(256, window - window // 8 - 512)
    previous = min(SUMMARY_OUTPUT_TOKENS, request // 4)
    fixed = count(INSTRUCTIONS) + count(CONTINUATION) + previous + MESSAGE_OVERHEAD_TOKENS + 64
    return SummaryBudget(
        request_tokens=request, previous_summary_tokens=previous, chunk_tokens=max(32, request - fixed)
    )


def summary_request(
    chunk: str, previous_summary: str | None, budget: SummaryBudget, count: TextCounter
) -> list[Message]:
    """The messages of one summary request: one user message that ends by asking for the summary."""
    parts = [f"<transcript>\n{chunk}\n</transcript>", INSTRUCTIONS]
    if previous_summary:
        kept = shorten(previous_summary, budget.previous_summary_tokens, count)
        parts.insert(0, f"{CONTINUATION}\n<summary>\n{kept}\n</summary>")
    return [UserMessage(content="\n\n".join(parts))]


def retry_request(
    chunk: str,
    previous_summary: str | None,
    missing: Sequence[str],
    budget: SummaryBudget,
    count: TextCounter,
) -> list[Message]:
    """The one retry after an empty or incomplete answer: same request, plus what was missing."""
    note = (
        "Your previous answer was empty."
        if not missing or list(missing) == list(SECTIONS)
        else "Your previous answer lacked these headings: " + ", ".join(missing) + "."
    )
    request = summary_request(chunk, previous_summary, budget, count)
    last = request[-1]
    assert isinstance(last, UserMessage)
    return [UserMessage(content=f"{last.content}\n\n{note} Include every heading.")]


def missing_sections(summary: str) -> list[str]:
    """Headings of the fixed structure the summary lacks; all of them when it is empty."""
    lowered = summary.lower()
    return [name for name in SECTIONS if f"## {name.lower()}" not in lowered]


def summary_message(summary: str) -> SystemMessage:
    """The message that opens a compacted history."""
    return SystemMessage(content=SUMMARY_PREFIX + summary.strip())
