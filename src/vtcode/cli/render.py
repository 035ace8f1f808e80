"""Renderers of the event stream for `vtcode exec`: JSON lines, or human progress plus the answer."""

from __future__ import annotations

import re
import sys
from typing import TextIO

from vtcode.cli.task_lines import task_lines
from vtcode.core.call_summary import argument_summary
from vtcode.core.exec.text import clean_text
from vtcode.core.plan import progress_line
from vtcode.protocol.events import (
    AgentMessageItem,
    CommandExecutionItem,
    Event,
    FileChangeItem,
    HookSkipped,
    ItemCompleted,
    ItemDelta,
    ItemStarted,
    Notice,
    PlanUpdated,
    ReasoningItem,
    ThreadCompacted,
    ToolCallItem,
    ToolsChanged,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
    UsageSummary,
    encode_event,
)
from vtcode.protocol.parsed_fields import with_parsed_json
from vtcode.protocol.plan import Plan

# C1 controls (U+0080-U+009F): terminals in 8-bit mode (xterm, VTE with some settings) take U+009B
# as CSI and U+009D as OSC, the same as ESC [ and ESC ]. Whole sequences go, then any stray C1 left.
_C1 = re.compile(
    r"\x9b[0-?]*[ -/]*[@-~]"
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x9c\x1b\n]*(?:\x07|\x9c|\x1b\\)?"
    r"|[\x80-\x9f]"
)


def terminal_safe(text: str) -> str:
    """Model or command text with every terminal control sequence removed, 7-bit (ESC) and 8-bit (C1)."""
    if any("\x80" <= ch <= "\x9f" for ch in text):
        text = _C1.sub("", text)
    return clean_text(text)


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

    def __init__(self, out: TextIO | None = None, *, deltas: bool = False, err: TextIO | None = None) -> None:
        self.out = _Output(out or sys.stdout)
        self.err = _Output(err or sys.stderr)
        self.deltas = deltas

    def __call__(self, event: Event) -> None:
        if isinstance(event, ItemDelta) and not self.deltas:
            return
        self.out.write(encode_event(with_parsed_json(event)).decode("utf-8") + "\n")
        if isinstance(event, HookSkipped):
            # A policy hook that does not run must never go unnoticed, also when stdout is a pipe.
            self.err.write(f"vtcode: {skipped_line(event)}\n")


_SESSION_ACTIONS = {"wait": "waiting for", "poll": "checking on", "write": "typing into", "kill": "stopping"}


class HumanRenderer:
    """Progress on stderr; the final answer on stdout (streamed live when stdout is a terminal).

    Every line is written (and flushed) as its event arrives, so progress reads in the order it happened
    also through a pipe. Model text reaching a terminal has its control sequences removed: an answer must
    not retitle the window or clear the screen.
    """

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.out = _Output(out or sys.stdout)
        self.err = _Output(err or sys.stderr)
        self.live = self.out.isatty()
        self._last_text = ""
        self._streamed_ids: set[str] = set()
        # A turn without an answer (`!cmd`): its command's output is the result printed on stdout.
        self._answered = False
        self._command_output = ""

    def __call__(self, event: Event) -> None:
        match event:
            case ItemDelta(item_id=item_id, kind="text", delta=text):
                # Live answer text, on a terminal only (a pipe gets the final answer once).
                if self.live:
                    self._streamed_ids.add(item_id)
                    self.out.write(terminal_safe(text))
            case ItemStarted(item=AgentMessageItem() | ReasoningItem()):
                pass
            case ItemStarted(item=item):
                # A message followed by a tool call was progress, not the answer: show it now.
                self._flush_progress()
                if isinstance(item, CommandExecutionItem):
                    self._command_started(item)
            case TurnStarted():
                self._answered, self._command_output = False, ""
            case ItemCompleted(item=CommandExecutionItem() as item):
                self._command_done(item)
                self._command_output += item.aggregated_output  # a long one's waits add to it
            case ItemCompleted(item=FileChangeItem(changes=changes, status=status, message=message)):
                for change in changes:
                    self._note(f"{change.kind}: {change.path}")
                if status == "declined":
                    self._note(f"  edit not made: {message or 'approval required'}")
                elif status == "failed":
                    self._note(f"  edit failed: {_first_line(message or 'unknown error')}")
            case ItemCompleted(item=ToolCallItem(name="update_plan", status="completed")):
                pass  # the `plan.updated` line says it
            case ItemCompleted(item=ToolCallItem(name="task") as item):
                for line in task_lines(item.arguments, item.status, item.result, item.details):
                    self._note(line)
            case ItemCompleted(
                item=ToolCallItem(name=name, arguments=arguments, status=status, result=result)
            ):
                failed = "" if status == "completed" else f"  ({status})"
                self._note(f"• {name} {argument_summary(arguments, width=80)}".rstrip() + failed)
                if status == "failed" and result:
                    self._note(f"  {_first_line(result)}")
            case ItemCompleted(item=AgentMessageItem(id=item_id, text=text)):
                self._answered = True
                if item_id in self._streamed_ids:
                    self.out.write("\n")
                else:
                    self._flush_progress()
                self._last_text = "" if item_id in self._streamed_ids else text
            case PlanUpdated(plan=steps, explanation=explanation, dropped=dropped):
                self._note(progress_line(Plan(steps=steps, explanation=explanation)))
                for step in dropped:
                    self._note(f"  dropped from the plan: {step.step}")
            case Notice(message=message, level=level):
                self._note(f"{level}: {message}")
            case ToolsChanged(source=source, added=added, removed=removed):
                counts = [f"+{len(added)}" if added else "", f"-{len(removed)}" if removed else ""]
                self._note(f"tools from {source}: {' '.join(c for c in counts if c) or 'changed'}")
            case ThreadCompacted(before_tokens=before, after_tokens=after, trigger=trigger, mode=mode):
                how = f"{trigger}, {mode} summary" if mode else trigger
                self._note(f"history compacted ({how}): ~{before:,} -> ~{after:,} tokens")
            case UsageSummary(requests=requests) if requests:
                # Loaded at the first summary (the end of a turn), not at every start-up.
                from vtcode.core.usage_text import one_line, report_of

                self._note(one_line(report_of(event)))
            case TurnFailed(kind="store") if self._last_text:
                # The answer came (and was paid for) but could not be saved (a full disk): it is still
                # the result, and the error follows on stderr.
                self.out.write(terminal_safe(self._last_text).rstrip("\n") + "\n")
                self._last_text = ""
            case TurnCompleted():
                if self._last_text:
                    # A pipe gets no control sequences either: a file that is later `cat` replays them.
                    self.out.write(terminal_safe(self._last_text).rstrip("\n") + "\n")
                    self._last_text = ""
                elif not self._answered and self._command_output:
                    self.out.write(terminal_safe(self._command_output).rstrip("\n") + "\n")
            case _:
                pass

    def _command_started(self, item: CommandExecutionItem) -> None:
        if item.action:
            verb = _SESSION_ACTIONS.get(item.action, item.action)
            self._note(f"  … {verb} `{_short(item.command)}`")
        else:
            self._note(f"$ {item.command}")

    def _command_done(self, item: CommandExecutionItem) -> None:
        if item.status == "declined":
            self._note(f"  (not run: {_first_line(item.aggregated_output) or 'approval required'})")
        elif item.exit_code is not None and item.exit_code < 0:
            self._note("  killed")
        elif item.exit_code is not None:
            self._note(f"  exit {item.exit_code}")
        elif item.status == "failed":
            self._note(f"  failed: {_first_line(item.aggregated_output) or 'unknown error'}")
        elif item.action is None:
            self._note("  still running")

    def _flush_progress(self) -> None:
        if self._last_text:
            self._note(self._last_text)
            self._last_text = ""

    def _note(self, text: str) -> None:
        self.err.write(terminal_safe(text).rstrip("\n") + "\n")


def skipped_line(event: HookSkipped) -> str:
    """`hook skipped: untrusted (...)`: one line for a hook that did not run."""
    return f"hook skipped: {event.reason} ({event.event} `{_short(event.command)}` from {event.source_path})"


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 200 else line[:199] + "…"


def _short(command: str) -> str:
    return command if len(command) <= 60 else command[:59] + "…"
