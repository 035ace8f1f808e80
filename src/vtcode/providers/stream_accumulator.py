"""What the three stream decoders share: a reply's text, reasoning and tool-call fragments as they arrive.

Each part keeps the fragments it was given and returns the stream event that shows them, so what a
consumer saw always adds up to what the final reply holds (a call's final arguments, when its wire
sends them, settle what its fragments said). The decoders keep only their wire's event mapping: which
part an event belongs to (a content block, an output item, a tool-call index), and the wire's quirks
(separators, pending arguments, when the arguments are final).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from vtcode.protocol.messages import AssistantMessage, Reasoning, ToolCall
from vtcode.protocol.model import ReasoningDelta, StreamEvent, TextDelta, ToolCallDelta, ToolCallStarted


class TextPart(msgspec.Struct):
    """A run of answer text (a whole Chat reply, an Anthropic text block, a Responses message item)."""

    fragments: list[str] = msgspec.field(default_factory=list)

    def add(self, text: str) -> TextDelta:
        """Keep `text` and return the event that streams it."""
        self.fragments.append(text)
        return TextDelta(text)


class ReasoningPart(msgspec.Struct):
    """One reasoning block or item, with what the provider needs to accept it back later."""

    fragments: list[str] = msgspec.field(default_factory=list)
    signature: str | None = None
    redacted: str | None = None
    item_id: str | None = None
    encrypted_content: str | None = None
    # Anthropic keeps a thinking block in the reply even when it streamed no text.
    keep_empty: bool = False

    def add(self, text: str) -> ReasoningDelta:
        """Keep `text` and return the event that streams it."""
        self.fragments.append(text)
        return ReasoningDelta(text)

    @property
    def kept(self) -> bool:
        """Whether the final reply carries this part."""
        return bool(self.keep_empty or self.fragments or self.item_id or self.redacted)

    def reasoning(self) -> Reasoning:
        """The part as the reply's `Reasoning`."""
        return Reasoning(
            text="".join(self.fragments),
            signature=self.signature,
            redacted=self.redacted,
            item_id=self.item_id,
            encrypted_content=self.encrypted_content,
        )


class CallPart(msgspec.Struct):
    """A tool call: `index` is the call index the runtime sees, fragments are its JSON arguments."""

    index: int
    call_id: str
    name: str
    item_id: str | None = None
    fragments: list[str] = msgspec.field(default_factory=list)
    # The arguments when no fragment came (Anthropic: the start block's input, else `{}`).
    fallback: str = ""

    def started(self) -> ToolCallStarted:
        """The event that announces the call."""
        return ToolCallStarted(self.index, self.call_id, self.name)

    def add(self, fragment: str) -> ToolCallDelta:
        """Keep an arguments fragment and return the event that streams it."""
        self.fragments.append(fragment)
        return ToolCallDelta(self.index, fragment)

    @property
    def arguments(self) -> str:
        """The arguments streamed so far (the fallback when none were)."""
        return "".join(self.fragments) or self.fallback

    def settle(self, final: str) -> list[StreamEvent]:
        """Make `final` the arguments (they win over the fragments); stream what the fragments lacked."""
        streamed = "".join(self.fragments)
        if final == streamed or not final:
            return []
        self.fragments = [final]
        if final.startswith(streamed):
            # Fragments were missing at the end (or never sent): stream the rest so deltas add up.
            return [ToolCallDelta(self.index, final[len(streamed) :])]
        return []

    def tool_call(self) -> ToolCall:
        """The call as the reply's `ToolCall`."""
        return ToolCall(id=self.call_id, name=self.name, arguments=self.arguments, item_id=self.item_id)


Part = TextPart | ReasoningPart | CallPart


def assemble(parts: Iterable[Part]) -> AssistantMessage:
    """The reply the parts make, given in the wire's order: calls come out ordered by call index."""
    text: list[str] = []
    reasoning: list[Reasoning] = []
    calls: list[CallPart] = []
    for part in parts:
        if isinstance(part, TextPart):
            text += part.fragments
        elif isinstance(part, ReasoningPart):
            if part.kept:
                reasoning.append(part.reasoning())
        else:
            calls.append(part)
    calls.sort(key=lambda call: call.index)
    return AssistantMessage(
        content="".join(text),
        reasoning=tuple(reasoning),
        tool_calls=tuple(call.tool_call() for call in calls),
    )
