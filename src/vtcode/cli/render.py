"""Renderers of the event stream for `vtcode exec`: JSON lines, or human progress plus the answer."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from vtcode.protocol.events import (
    AgentMessageItem,
    CommandExecutionItem,
    Event,
    FileChangeItem,
    ItemCompleted,
    ItemDelta,
    ItemStarted,
    Notice,
    ThreadCompacted,
    ToolCallItem,
    TurnCompleted,
    TurnFailed,
    encode_event,
)


def _argument_summary(arguments: str) -> str:
    """The arguments a person wants to see for a tool call: paths and patterns, briefly."""
    try:
        values = json.loads(arguments or "{}")
    except ValueError:
        return ""
    if not isinstance(values, dict):
        return ""
    shown = [str(values[key]) for key in ("path", "pattern", "glob") if values.get(key)]
    text = " ".join(shown)
    return text if len(text) <= 80 else text[:79] + "…"


class _Output:
    """A text stream that goes quiet when its reader leaves: a closed pipe must not stop the agent
    mid-batch (the session would keep a tool call without its result)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.closed = False

    def write(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (BrokenPipeError, ValueError):
            self.closed = True

    def isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except ValueError:
            return False


class JsonRenderer:
    """One JSON object per line on stdout, flushed so a reader sees each event as it happens.

    `item.delta` events are printed only when asked for (`--json-deltas`): line consumers written for
    whole items are not flooded with one line per token.
    """

    def __init__(self, out: TextIO | None = None, *, deltas: bool = False) -> None:
        self.out = _Output(out or sys.stdout)
        self.deltas = deltas

    def __call__(self, event: Event) -> None:
        if isinstance(event, ItemDelta) and not self.deltas:
            return
        self.out.write(encode_event(event).decode("utf-8") + "\n")


class HumanRenderer:
    """Progress on stderr; the final answer on stdout (streamed live when stdout is a terminal)."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.out = _Output(out or sys.stdout)
        self.err = _Output(err or sys.stderr)
        self.live = self.out.isatty()
        self._last_text = ""
        self._streamed_ids: set[str] = set()

    def __call__(self, event: Event) -> None:
        match event:
            case ItemDelta(item_id=item_id, kind="text", delta=text):
                # Live answer text, on a terminal only (a pipe gets the final answer once).
                if self.live:
                    self._streamed_ids.add(item_id)
                    self.out.write(text)
            case ItemStarted(item=CommandExecutionItem(command=command)):
                self._note(f"$ {command}")
            case ItemCompleted(item=CommandExecutionItem(status=status, exit_code=code)):
                if status == "declined":
                    self._note("  (not run: approval required)")
                elif code is not None:
                    self._note(f"  exit {code}")
            case ItemCompleted(item=FileChangeItem(changes=changes)):
                for change in changes:
                    self._note(f"{change.kind}: {change.path}")
            case ItemCompleted(item=ToolCallItem(name=name, arguments=arguments, status=status)):
                failed = "" if status == "completed" else f"  ({status})"
                self._note(f"• {name} {_argument_summary(arguments)}".rstrip() + failed)
            case ItemCompleted(item=AgentMessageItem(id=item_id, text=text)):
                if item_id in self._streamed_ids:
                    self.out.write("\n")
                elif self._last_text:
                    # An earlier message was not the final one: it was progress.
                    self._note(self._last_text)
                self._last_text = "" if item_id in self._streamed_ids else text
            case Notice(message=message, level=level):
                self._note(f"{level}: {message}")
            case ThreadCompacted(before_tokens=before, after_tokens=after, trigger=trigger, mode=mode):
                how = f"{trigger}, {mode} summary" if mode else trigger
                self._note(f"history compacted ({how}): ~{before:,} -> ~{after:,} tokens")
            case TurnCompleted():
                if self._last_text:
                    self.out.write(self._last_text.rstrip("\n") + "\n")
                    self._last_text = ""
            case TurnFailed():
                pass
            case _:
                pass

    def _note(self, text: str) -> None:
        self.err.write(text.rstrip("\n") + "\n")
