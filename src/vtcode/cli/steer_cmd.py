"""`vtcode steer`: send a follow-up to a running or stored session from another terminal (SPEC section 7)."""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from vtcode.cli.inputs import read_prompt, workspace_dir
from vtcode.config.environment import os_environ, resolve_home
from vtcode.config.loader import load_settings
from vtcode.core.compaction.envelope import PendingIntent
from vtcode.protocol.errors import ExitCode, InterruptedByUser, UsageError, VtcodeError
from vtcode.store.intents import IntentStore
from vtcode.store.session import SessionStore

# How often `--wait` looks at the envelope; acknowledgement is a durable write, so this is plenty.
_WAIT_POLL_SECONDS = 0.05
# Whether the session is still running (a lock probe) is checked about every second while waiting.
_RUNNING_CHECK_EVERY = 20


def run_steer(args: argparse.Namespace, overrides: list[str]) -> int:
    """Enqueue, cancel, or wait for an intent; prints the intent id once it is durable."""
    env = os_environ()
    workspace = workspace_dir(args.workspace)
    load_settings(workspace=workspace, env=env, overrides=overrides)
    store = SessionStore(resolve_home(env), time.time, lambda: str(uuid.uuid4()))
    session_id = _target(store, workspace, args.session)
    intents = IntentStore(store.sessions_dir / session_id)
    if args.cancel:
        return _cancel(intents, args.cancel)
    text = read_prompt(" ".join(args.text) if args.text else None)
    intent = PendingIntent(id=str(uuid.uuid4()), text=text, mode=args.mode, created_at=time.time())
    intents.enqueue(intent)
    sys.stdout.write(intent.id + "\n")
    sys.stdout.flush()
    if args.wait:
        _wait_applied(intents, intent.id, running=lambda: store.is_running(session_id))
    return ExitCode.OK


def _target(store: SessionStore, workspace: Path, session: str | None) -> str:
    """The session to steer: the given one, else the workspace's running one, else its latest."""
    if session:
        return store.resolve_id(session)
    candidates = store.in_workspace(workspace)
    for info in candidates:
        if store.is_running(info.id):
            return info.id
    if candidates:
        return candidates[0].id
    raise UsageError(
        f"no session to steer in {workspace}",
        hint="start one with `vtcode exec PROMPT`, or name one with --session ID",
    )


def _cancel(intents: IntentStore, intent_id: str) -> int:
    removed = intents.cancel(intent_id)
    if removed is not None:
        sys.stdout.write(f"cancelled {intent_id}\n")
        return ExitCode.OK
    if intent_id in intents.read().applied_intent_ids:
        raise VtcodeError(f"intent {intent_id} was already applied; it cannot be cancelled")
    raise UsageError(
        f"no pending intent {intent_id} in session {intents.session_id}",
        hint="`vtcode sessions show ID` lists the session's history",
    )


def _wait_applied(intents: IntentStore, intent_id: str, *, running: Callable[[], bool]) -> None:
    """Return once the intent's tagged message is checkpointed (it is then in the applied window).

    Only a running session applies it: with none (a stored session, or the run ended first) waiting
    would never end, so that is an error saying the intent stays queued for the next resume.
    """
    polls = 0
    try:
        while True:
            envelope = intents.read()
            if intent_id in envelope.applied_intent_ids:
                return
            if all(p.id != intent_id for p in envelope.pending_intents):
                raise VtcodeError(f"intent {intent_id} was cancelled before it was applied")
            if polls % _RUNNING_CHECK_EVERY == 0 and not running():
                raise VtcodeError(
                    f"session {intents.session_id} is not running, so nothing applies the intent now; it "
                    "stays queued",
                    hint=f"`vtcode exec --resume {intents.session_id} ...` applies it first",
                )
            polls += 1
            time.sleep(_WAIT_POLL_SECONDS)
    except KeyboardInterrupt:
        raise InterruptedByUser("interrupted; the intent stays queued") from None
