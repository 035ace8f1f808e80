"""The one place lifecycle hooks run (SPEC section 10): every tool call of every front end, prompts,
turn ends, compaction and the session's start and end call `fire` here.

Matching and decisions are pure (core/hooks), processes are exec's (`exec.hook_runner`); this module
chooses the hooks of an event, builds their stdin, runs them concurrently, reports each run as
`hook.started` / `hook.completed`, shows warnings as notices, and re-checks a workspace hook's digest
before it starts (a script changed since it was trusted does not run). Built for SubagentStart and
SubagentStop too: a child session passes its `agent_id` in the payload.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

from vtcode import __version__
from vtcode.config.hook_sources import digest_of, expand_project_dir
from vtcode.core.hooks.condition import condition_holds
from vtcode.core.hooks.matching import select, subject_names
from vtcode.core.hooks.model import (
    SESSION_END_BUDGET,
    SESSION_END_BUDGET_MAX,
    TOOL_EVENTS,
    ConfiguredHook,
    HookEvent,
    HookSet,
)
from vtcode.core.hooks.outcome import Combined, HookResult, cap_context, combine, read_run
from vtcode.exec.hook_runner import hook_argv, run_hook
from vtcode.exec.spool import spool_dir
from vtcode.protocol.events import HookCompleted, HookSkipped, HookSourceKind, HookStarted
from vtcode.runtime import callable_hooks
from vtcode.runtime.callable_hooks import CallableHook
from vtcode.runtime.emitter import Emitter

NOTHING = Combined()
# vtcode approval modes in Claude Code's `permission_mode` vocabulary.
PERMISSION_MODES = {
    "read-only": "plan",
    "ask": "default",
    "auto-edit": "acceptEdits",
    "full-auto": "bypassPermissions",
}
UNTRUSTED = "untrusted: run `vtcode hooks trust` to review and trust it"
CHANGED = "changed since it was trusted: run `vtcode hooks trust` again"


class HookDispatch:
    """Runs the hooks of one session."""

    def __init__(
        self,
        hooks: HookSet,
        *,
        workspace: Path,
        env: Mapping[str, str],
        emitter: Emitter,
        session_id: str,
        model: str,
        transcript_path: str = "",
        permission_mode: Callable[[], str] = lambda: "auto-edit",
        monotonic: Callable[[], float] = time.monotonic,
        agent: Mapping[str, str] | None = None,
        callables: Sequence[CallableHook] = (),
    ) -> None:
        self.hooks = hooks
        # In-process hooks of an embedding program (runtime.callable_hooks), after the commands.
        self.callables = tuple(callables)
        self.workspace = workspace
        self.emitter = emitter
        self.session_id = session_id
        self.model = model
        self.transcript_path = transcript_path
        self.permission_mode = permission_mode
        self.monotonic = monotonic
        self._events = frozenset(h.event for h in hooks.hooks if h.trusted) | {h.event for h in callables}
        self._env = {
            **env,
            "VTCODE_PROJECT_DIR": str(workspace),
            "CLAUDE_PROJECT_DIR": str(workspace),
            "VTCODE_SESSION_ID": session_id,
        }
        # A child session's hooks (SubagentStart/Stop, its tool calls) also say which agent: `agent_id`,
        # `agent_type` in every input, as Claude Code does inside subagents.
        self.agent = dict(agent or {})
        self._argv: dict[ConfiguredHook, list[str]] = {}
        self._event_env: dict[HookEvent, dict[str, str]] = {}
        self._spilled = 0

    def active(self, event: HookEvent) -> bool:
        """Whether any trusted hook listens to `event` (the no-hooks path costs one set lookup)."""
        return event in self._events

    def add(self, extra: Sequence[ConfiguredHook]) -> None:
        """Run `extra` too from now on (a skill's frontmatter hooks while its turn lasts)."""
        self._set(HookSet((*self.hooks.hooks, *extra)))

    def remove(self, extra: Sequence[ConfiguredHook]) -> None:
        """Stop running hooks `add` added."""
        gone = set(extra)
        self._set(HookSet(tuple(h for h in self.hooks.hooks if h not in gone)))

    def _set(self, hooks: HookSet) -> None:
        self.hooks = hooks
        self._events = frozenset(h.event for h in hooks.hooks if h.trusted) | {
            h.event for h in self.callables
        }

    def report_untrusted(self) -> None:
        """One `hook.skipped` event and one warning per hook held back until the user trusts it."""
        for hook in self.hooks.untrusted:
            self.emitter.emit(_skipped(hook, UNTRUSTED))
            self.emitter.warn(skipped_text(hook, UNTRUSTED))

    async def fire(
        self,
        event: HookEvent,
        payload: Mapping[str, Any],
        *,
        tool: str | None = None,
        subject: str | None = None,
    ) -> Combined:
        """Run the hooks `event` selects for `tool` (or `subject`) concurrently and combine their results."""
        if event not in self._events:
            return NOTHING
        names = subject_names(event, tool, subject)
        chosen = select(self.hooks, event, names)
        if event in TOOL_EVENTS and names is not None:
            chosen = self._meeting_conditions(chosen, names, payload.get("tool_input"))
        own = callable_hooks.chosen(self.callables, event, names)
        if not chosen and not own:
            return NOTHING
        stdin = json.dumps({**self._common(event), **payload}, default=str).encode()
        runs = [self._run(event, hook, stdin) for hook in chosen]
        if event == "SessionEnd":
            results = await self._within_budget(chosen, runs)
        else:
            results = tuple(await asyncio.gather(*runs))
        if own:
            results = (*results, await callable_hooks.run_chain(own, {**self._common(event), **payload}))
        combined = combine(results)
        for warning in combined.warnings:
            self.emitter.warn(warning)
        return combined

    def _meeting_conditions(
        self, chosen: tuple[ConfiguredHook, ...], names: Sequence[str], tool_input: object
    ) -> tuple[ConfiguredHook, ...]:
        """The chosen hooks whose `if` (if any) the call meets."""
        given = tool_input if isinstance(tool_input, Mapping) else {}
        workspace = str(self.workspace)
        return tuple(
            h
            for h in chosen
            if h.handler.if_ is None or condition_holds(h.handler.if_, names, given, workspace)
        )

    def model_context(self, combined: Combined, label: str) -> str:
        """The context hooks added, capped at 10,000 characters; the rest spooled with its path named."""
        text = combined.context
        if not text:
            return ""
        kept, rest = cap_context(text)
        if rest:
            self._spilled += 1
            folder = spool_dir(self.workspace)
            path = folder / f"hook-context-{self.session_id[:8]}-{self._spilled}.txt"
            try:
                folder.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                kept += f"\n[hook context cut at 10,000 characters; the whole text is in {path}]"
            except OSError:
                kept += "\n[hook context cut at 10,000 characters]"
        return f'<hook_context source="{label}">\n{kept}\n</hook_context>'

    def _env_for(self, event: HookEvent) -> dict[str, str]:
        env = self._event_env.get(event)
        if env is None:
            env = self._event_env[event] = {**self._env, "VTCODE_HOOK_EVENT": event}
        return env

    def _common(self, event: HookEvent) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "transcript_path": self.transcript_path,
            "cwd": str(self.workspace),
            "hook_event_name": event,
            "permission_mode": PERMISSION_MODES.get(self.permission_mode(), "default"),
            "model": self.model,
            "vtcode_version": __version__,
            **self.agent,
        }

    async def _within_budget(
        self, chosen: tuple[ConfiguredHook, ...], runs: list[Any]
    ) -> tuple[HookResult, ...]:
        """SessionEnd hooks share a budget (1.5 s, or their longest own timeout up to 60 s)."""
        own = [h.handler.timeout for h in chosen if h.handler.timeout is not None]
        budget = min(max([SESSION_END_BUDGET, *own]), SESSION_END_BUDGET_MAX)
        tasks = [asyncio.ensure_future(run) for run in runs]
        done, pending = await asyncio.wait(tasks, timeout=budget)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if pending:
            self.emitter.warn(f"SessionEnd hooks stopped after their {budget:g} s budget")
        return tuple(t.result() for t in tasks if t in done and t.exception() is None)

    async def _run(self, event: HookEvent, hook: ConfiguredHook, stdin: bytes) -> HookResult:
        handler = hook.handler
        if hook.source.needs_trust and digest_of(event, hook.matcher, handler, self.workspace) != hook.digest:
            self.emitter.emit(_skipped(hook, CHANGED))
            return HookResult("not_started", warning=skipped_text(hook, CHANGED))
        argv = self._argv.get(hook)
        if argv is None:
            command = expand_project_dir(handler.command, self.workspace)
            args = (
                None
                if handler.args is None
                else [expand_project_dir(a, self.workspace) for a in handler.args]
            )
            argv = self._argv[hook] = hook_argv(command, args, self._env)
        self.emitter.emit(HookStarted(**_about(hook, event), status_message=handler.status_message or ""))
        started = self.monotonic()
        run = await run_hook(
            argv,
            stdin=stdin,
            cwd=self.workspace,
            env=self._env_for(event),
            seconds=handler.timeout_for(event),
        )
        result = read_run(event, handler, run)
        self.emitter.emit(
            HookCompleted(
                **_about(hook, event),
                outcome=result.outcome,
                decision=result.decision,
                duration_ms=round((self.monotonic() - started) * 1000),
                message=result.reason or result.warning,
            )
        )
        return result


def skipped_text(hook: ConfiguredHook, reason: str) -> str:
    """`hook skipped: untrusted (...)`: one line for a hook that did not run."""
    return f"hook skipped: {reason} ({hook.event} `{hook.handler.display}` from {hook.source.path})"


def _skipped(hook: ConfiguredHook, reason: str) -> HookSkipped:
    return HookSkipped(**_about(hook, hook.event), reason=reason)


class _About(TypedDict):
    event: str
    source: HookSourceKind
    source_path: str
    command: str
    digest: str


def _about(hook: ConfiguredHook, event: HookEvent) -> _About:
    """What every hook event says of the hook it is about."""
    source = hook.source
    return _About(
        event=event,
        source=source.kind,
        source_path=source.path,
        command=hook.handler.display,
        digest=hook.digest,
    )
