"""A vtcode `exec --json` event stream as an ATIF trajectory (Harbor's RFC 0001), pure and total.

Mapping (reference batch-scale §9.3):
- the instruction (when given) -> a `user` step; an applied steering intent -> a `user` step where it
  applied, with the text its `intent.queued` carried;
- one model reply (its `reasoning` and `agent_message` items) and the tool items that follow it -> one
  `agent` step with `message`, `reasoning_content`, `tool_calls` and, per call, an observation result;
  `command_execution` -> `exec_command` (`write_stdin` for a call on a running command session),
  `file_change` -> its edit tool (`apply_patch`), `tool_call` -> the tool's own name;
- `turn.completed{usage}` -> `metrics` on the turn's last agent step (prompt tokens include cached
  ones, as vtcode's `input_tokens` do); the run's usage -> `final_metrics`;
- `thread.compacted` -> a `system` step with `extra.context_management = {type: compaction, boundary:
  replace}`, the compaction's figures as its observation;
- `turn.failed` -> `extra.error` on the last step and a line in `notes`.

The stream marks no boundary between two model replies that both consist of tool calls only, so such
replies share one agent step (`llm_call_count` is left out: it is not known per step); the run's request
count is in `final_metrics.extra.requests`. Unknown event types are skipped, so newer streams convert.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

ATIF_SCHEMA_VERSION = "ATIF-v1.7"

# The tool a command item came from: a call on a running session has an `action`.
_SESSION_TOOL = "write_stdin"
_COMMAND_TOOL = "exec_command"


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _timestamp(event: Mapping[str, Any]) -> str | None:
    """The event's `ts` (seconds since the epoch) as ISO 8601 in UTC; None when it has none."""
    ts = event.get("ts")
    if isinstance(ts, int | float) and not isinstance(ts, bool):
        return datetime.fromtimestamp(ts, tz=UTC).isoformat()
    return None


def _arguments(raw: object, parsed: object) -> dict[str, Any]:
    """A tool call's arguments as an object: the parsed form, else the string parsed, else kept raw."""
    if isinstance(parsed, Mapping):
        return dict(parsed)
    text = _text(raw)
    if not text.strip():
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {"raw": text}
    return dict(value) if isinstance(value, dict) else {"raw": text}


def _metrics(usage: Mapping[str, Any]) -> dict[str, Any]:
    metrics: dict[str, Any] = {
        "prompt_tokens": _count(usage.get("input_tokens")),
        "completion_tokens": _count(usage.get("output_tokens")),
        "cached_tokens": _count(usage.get("cached_input_tokens")),
    }
    extra = {
        key: _count(usage.get(key))
        for key in ("cache_creation_input_tokens", "reasoning_tokens")
        if _count(usage.get(key))
    }
    if extra:
        metrics["extra"] = extra
    return metrics


def _call_and_result(item: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The ATIF tool call and observation result an item stands for; None for text items."""
    kind, call_id = item.get("type"), _text(item.get("id"))
    result: dict[str, Any] = {"source_call_id": call_id}
    extra: dict[str, Any] = {"status": _text(item.get("status"))}
    if kind == "command_execution":
        action = item.get("action")
        name = _SESSION_TOOL if isinstance(action, str) and action else _COMMAND_TOOL
        arguments: dict[str, Any] = {"command": _text(item.get("command"))}
        if name == _SESSION_TOOL:
            arguments["action"] = action
        result["content"] = _text(item.get("aggregated_output"))
        extra["exit_code"] = item.get("exit_code")
        if isinstance(item.get("session_id"), str):
            extra["session_id"] = item["session_id"]
    elif kind == "file_change":
        name = _text(item.get("tool")) or "apply_patch"
        changes = [dict(_mapping(c)) for c in item.get("changes") or () if isinstance(c, Mapping)]
        paths = [p for p in item.get("paths") or () if isinstance(p, str)]
        arguments = {"paths": paths or [_text(c.get("path")) for c in changes]}
        lines = [
            f"{_text(c.get('kind'))} {_text(c.get('path'))}"
            + (f" -> {c['move_to']}" if isinstance(c.get("move_to"), str) else "")
            for c in changes
        ]
        result["content"] = _text(item.get("message")) or "\n".join(lines)
        if changes:
            extra["changes"] = changes
    elif kind == "tool_call":
        name = _text(item.get("name"))
        arguments = _arguments(item.get("arguments"), item.get("arguments_json"))
        result["content"] = _text(item.get("result"))
        if isinstance(item.get("details"), Mapping):
            extra["details"] = dict(item["details"])
    else:
        return None
    result["extra"] = extra
    return {"tool_call_id": call_id, "function_name": name, "arguments": arguments}, result


class _Builder:
    """Steps as the events arrive; one instance per conversion."""

    def __init__(self, instruction: str | None) -> None:
        self.steps: list[dict[str, Any]] = []
        self.instruction = instruction
        self.open: dict[str, Any] | None = None  # the agent step the current reply fills
        self.turn_steps: list[dict[str, Any]] = []  # agent steps of the current turn
        self.results: dict[str, dict[str, Any]] = {}  # call id -> observation result
        self.calls: dict[str, dict[str, Any]] = {}  # call id -> tool call
        self.texts: dict[str, dict[str, Any]] = {}  # text item id -> its step
        self.intents: dict[str, Mapping[str, Any]] = {}
        self.notes: list[str] = []
        self.turn_usage: dict[str, int] = {}
        self.run_usage: Mapping[str, Any] | None = None
        self.usage_summary: Mapping[str, Any] = {}
        self.extra: dict[str, Any] = {}

    def add(self, source: str, message: str, event: Mapping[str, Any], **fields: Any) -> dict[str, Any]:
        step: dict[str, Any] = {"step_id": len(self.steps) + 1}
        if (ts := _timestamp(event)) is not None:
            step["timestamp"] = ts
        step |= {"source": source, "message": message, **fields}
        self.steps.append(step)
        return step

    def agent_step(self, event: Mapping[str, Any], starts: str | None) -> dict[str, Any]:
        """The step an item belongs to: a new one when `starts` (a text kind) is already filled or
        follows tool calls, since a reply's text comes before its calls."""
        step = self.open
        if step is None or (starts is not None and (starts in step["_kinds"] or step.get("tool_calls"))):
            step = self.add("agent", "", event)
            step["_kinds"] = set()
            self.open = step
            self.turn_steps.append(step)
        return step

    def item(self, event: Mapping[str, Any], done: bool) -> None:
        item = _mapping(event.get("item"))
        kind, item_id = item.get("type"), _text(item.get("id"))
        if kind in ("agent_message", "reasoning"):
            text_kind = "message" if kind == "agent_message" else "reasoning_content"
            step = self.texts.get(item_id) or self.agent_step(event, text_kind)
            self.texts[item_id] = step
            step["_kinds"].add(text_kind)
            if done:
                step[text_kind] = _text(item.get("text"))
            return
        converted = _call_and_result(item)
        if converted is None:
            return
        call, result = converted
        if item_id in self.calls:
            # Arguments may change before a call runs (a PreToolUse hook's rewrite): keep the latest.
            self.calls[item_id].update(call)
        else:
            step = self.agent_step(event, None)
            step.setdefault("tool_calls", []).append(call)
            self.calls[item_id] = call
            placeholder: dict[str, Any] = {"source_call_id": item_id}
            step.setdefault("observation", {"results": []})["results"].append(placeholder)
            self.results[item_id] = placeholder
        if done:
            self.results[item_id].clear()
            self.results[item_id].update(result)

    def compacted(self, event: Mapping[str, Any]) -> None:
        self.open = None
        trigger, reason = _text(event.get("trigger")) or "auto", _text(event.get("reason"))
        counts = {
            key: _count(event.get(key))
            for key in ("before_messages", "after_messages", "before_tokens", "after_tokens")
        }
        summary = (
            f"history compacted: {counts['before_messages']} -> {counts['after_messages']} messages, "
            f"about {counts['before_tokens']} -> {counts['after_tokens']} tokens"
        )
        details: dict[str, Any] = {"trigger": trigger, **counts}
        for key in ("reason", "mode", "artifact_path"):
            if isinstance(event.get(key), str) and event[key]:
                details[key] = event[key]
        if event.get("notes"):
            details["notes"] = [n for n in event["notes"] if isinstance(n, str)]
        why = f"{trigger}, {reason}" if reason else trigger
        self.add(
            "system",
            f"Context compacted ({why})",
            event,
            observation={"results": [{"content": summary, "extra": details}]},
            extra={"context_management": {"type": "compaction", "boundary": "replace"}},
        )

    def applied(self, event: Mapping[str, Any]) -> None:
        intent_id = _text(event.get("intent_id"))
        queued = self.intents.get(intent_id, {})
        self.open = None
        extra = {"steering": {"intent_id": intent_id, "mode": _text(queued.get("mode")) or "queue"}}
        self.add("user", _text(queued.get("text")), event, extra=extra)

    def turn_completed(self, event: Mapping[str, Any]) -> None:
        usage = _mapping(event.get("usage"))
        for key in ("input_tokens", "output_tokens", "cached_input_tokens"):
            self.turn_usage[key] = self.turn_usage.get(key, 0) + _count(usage.get(key))
        if self.turn_steps:
            metrics = _metrics(usage)
            if len(self.turn_steps) > 1:
                # vtcode reports usage per turn; the figures cover every agent step of the turn.
                metrics.setdefault("extra", {})["covers_agent_steps"] = len(self.turn_steps)
            self.turn_steps[-1]["metrics"] = metrics

    def failed(self, event: Mapping[str, Any]) -> None:
        error = {key: event.get(key) for key in ("kind", "message", "hint", "exit_code") if key in event}
        if not self.steps:
            self.add("system", _text(event.get("message")) or "the run failed", event)
        self.steps[-1].setdefault("extra", {})["error"] = error
        self.notes.append(f"turn failed ({_text(event.get('kind'))}): {_text(event.get('message'))}")

    def feed(self, event: Mapping[str, Any]) -> None:
        match event.get("type"):
            case "thread.started":
                self.extra.setdefault("thread_id", _text(event.get("thread_id")))
                self.extra.setdefault("workspace", _text(event.get("workspace")))
            case "turn.started":
                self.open, self.turn_steps = None, []
                if self.instruction is not None:
                    self.add("user", self.instruction, event)
                    self.instruction = None
            case "item.started" | "item.updated":
                self.item(event, done=False)
            case "item.completed":
                self.item(event, done=True)
            case "thread.compacted":
                self.compacted(event)
            case "intent.queued":
                self.intents[_text(event.get("intent_id"))] = event
            case "intent.applied":
                self.applied(event)
            case "turn.completed":
                self.turn_completed(event)
            case "turn.failed":
                self.failed(event)
            case "notice":
                self.extra.setdefault("notices", []).append(_text(event.get("message")))
            case "usage":
                self.usage_summary = event
            case "thread.completed":
                self.run_usage = _mapping(event.get("usage"))
                self.extra["status"] = _text(event.get("status"))
            case _:
                pass

    def final_metrics(self) -> dict[str, Any]:
        # The run's own total when the stream ended properly: it also counts turns that failed.
        usage = self.run_usage if self.run_usage is not None else self.turn_usage
        metrics = _metrics(usage)
        final: dict[str, Any] = {
            "total_prompt_tokens": metrics["prompt_tokens"],
            "total_completion_tokens": metrics["completion_tokens"],
            "total_cached_tokens": metrics["cached_tokens"],
        }
        cost = self.usage_summary.get("cost_usd")
        if isinstance(cost, int | float) and not isinstance(cost, bool):
            final["total_cost_usd"] = float(cost)
        final["total_steps"] = len(self.steps)
        if "requests" in self.usage_summary:
            final["extra"] = {"requests": _count(self.usage_summary.get("requests"))}
        return final


def trajectory_from_events(
    events: Iterable[Mapping[str, object]],
    *,
    session_id: str,
    agent_name: str = "vtcode",
    agent_version: str,
    model_name: str | None,
    instruction: str | None = None,
) -> dict[str, object]:
    """The ATIF trajectory (a JSON-ready dict) of one `vtcode exec --json` event stream."""
    builder = _Builder(instruction)
    for event in events:
        if not isinstance(event, Mapping):
            raise ValueError(f"an exec --json event must be a JSON object, got {type(event).__name__}")
        builder.feed(event)
    if builder.instruction is not None:  # no turn ever started
        builder.add("user", builder.instruction, {})
    if not builder.steps:
        builder.add("system", "the run produced no steps", {})
    for step in builder.steps:
        step.pop("_kinds", None)
    agent: dict[str, object] = {"name": agent_name, "version": agent_version}
    if model_name is not None:
        agent["model_name"] = model_name
    trajectory: dict[str, object] = {
        "schema_version": ATIF_SCHEMA_VERSION,
        "session_id": session_id,
        "agent": agent,
        "steps": builder.steps,
        "final_metrics": builder.final_metrics(),
    }
    if builder.notes:
        trajectory["notes"] = "\n".join(builder.notes)
    if builder.extra:
        trajectory["extra"] = builder.extra
    return trajectory
