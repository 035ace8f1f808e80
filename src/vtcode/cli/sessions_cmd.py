"""`vtcode sessions list|show`."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
import uuid
from pathlib import Path

import msgspec

from vtcode.cli.config_warnings import show_config_warnings
from vtcode.config.environment import os_environ, resolve_home
from vtcode.config.loader import load_settings
from vtcode.protocol.errors import ExitCode, UsageError, VtcodeError
from vtcode.protocol.messages import AssistantMessage, Message, ToolResultMessage, UserMessage
from vtcode.store.archive import CompactionEntry
from vtcode.store.intents import IntentStore
from vtcode.store.meta import SessionInfo
from vtcode.store.session import SessionStore
from vtcode.store.session_removal import delete_session


def _when(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def _store(overrides: list[str]) -> SessionStore:
    env = os_environ()
    # Validate configuration the same way as every other command, so errors surface consistently.
    show_config_warnings(load_settings(workspace=Path.cwd(), env=env, overrides=overrides).warnings)
    return SessionStore(resolve_home(env), time.time, lambda: str(uuid.uuid4()))


def run_sessions(args: argparse.Namespace, overrides: list[str]) -> int:
    """List sessions, show one or delete one."""
    store = _store(overrides)
    if args.sessions_command == "delete":
        sys.stdout.write(f"deleted session {delete_session(store, args.id)}\n")
        return ExitCode.OK
    if args.sessions_command == "show":
        handle = store.open(args.id)
        history = handle.load()
        compactions = handle.compactions()
        # Subagent transcripts live in their parent's folder, as sessions of their own.
        children = sorted(
            SessionStore(handle.dir, time.time, str).scan().sessions, key=lambda i: i.created_at
        )
        if args.json:
            payload = {
                "info": msgspec.to_builtins(handle.info),
                "messages": msgspec.to_builtins(history.messages),
                "compactions": msgspec.to_builtins(compactions),
                "notices": history.notices,
                "subagents": msgspec.to_builtins(children),
            }
            sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
            return ExitCode.OK
        info = handle.info
        sys.stdout.write(
            f"session   {info.id}\nworkspace {info.workspace}\ncreated   {_when(info.created_at)}\n"
            f"updated   {_when(info.updated_at)}\nturns     {info.turns}\nmodel     "
            f"{info.provider}/{info.model}\ntitle     {info.title}\n\n"
        )
        _show_checkpoints(store.home, info.id)
        if compactions:
            sys.stdout.write(f"compactions ({len(compactions)}):\n")
            for entry in compactions:
                sys.stdout.write(_compaction_line(entry) + "\n")
            sys.stdout.write("\n")
        for message in history.messages:
            sys.stdout.write(_describe(message) + "\n")
        if children:
            sys.stdout.write(f"\nsubagents ({len(children)}):\n")
            for child in children:
                transcript = handle.dir / "sessions" / child.id / "history.jsonl"
                sys.stdout.write(f"  {child.id}  {child.turns} turn(s)  {child.title}\n    {transcript}\n")
        for notice in history.notices:
            sys.stderr.write(f"notice: {notice}\n")
        return ExitCode.OK
    listing = store.scan()
    for problem in [*listing.rebuilt, *listing.skipped]:
        sys.stderr.write(f"warning: {problem}\n")
    sessions = listing.sessions
    if args.list_workspace is not None:
        # Stored workspaces are real paths: compare with links resolved, as `--continue` does.
        workspace = Path(args.list_workspace).expanduser().resolve()
        if not workspace.is_dir():
            raise UsageError(f"--workspace {args.list_workspace}: not a directory")
        sessions = [info for info in sessions if info.workspace == str(workspace)]
    # The envelope, not meta.json, knows what waits: `vtcode steer` adds to a stored session's envelope only.
    sessions = [_with_pending(store.sessions_dir / info.id, info) for info in sessions]
    rows = [(info, store.status(info.id)) for info in sessions]
    if getattr(args, "json", False):
        listed = [{**msgspec.to_builtins(info), "status": status} for info, status in rows]
        sys.stdout.write(json.dumps(listed, ensure_ascii=False, indent=2) + "\n")
        return ExitCode.OK
    if not rows:
        where = f" for {args.list_workspace}" if args.list_workspace is not None else ""
        sys.stderr.write(f"no stored sessions{where}\n")
        return ExitCode.OK
    sys.stdout.write(
        "ID                                    CREATED           UPDATED           TURNS  STATUS       "
        "WORKSPACE  TITLE\n"
    )
    for info, status in rows:
        pending = f" (+{info.pending_intents} pending)" if info.pending_intents else ""
        sys.stdout.write(
            f"{info.id:<36}  {_when(info.created_at)}  {_when(info.updated_at)}  {info.turns:>5}  "
            f"{status:<11}  {info.workspace}  {info.title}{pending}\n"
        )
    return ExitCode.OK


def _with_pending(directory: Path, info: SessionInfo) -> SessionInfo:
    """`info` with the number of intents its envelope holds (meta.json's count when unreadable)."""
    try:
        pending = len(IntentStore(directory).read().pending_intents)
    except VtcodeError:
        return info
    return msgspec.structs.replace(info, pending_intents=pending)


def _describe(message: Message) -> str:
    match message:
        case UserMessage(content=content, meta=meta):
            # Context items and the note of an interrupt were written by vtcode, not by the user.
            return f"{meta.kind or 'user'}: {content}"
        case AssistantMessage(content=content, tool_calls=calls):
            shown = [content] if content else []
            shown += [f"[call {c.name} {c.arguments}]" for c in calls]
            return "assistant: " + " ".join(shown)
        case ToolResultMessage(name=name, content=content, is_error=is_error):
            flag = " (error)" if is_error else ""
            first = content.splitlines()[0] if content else ""
            return f"tool {name}{flag}: {first[:120]}"
        case _:
            return f"system: {message.content[:120]}"


def _compaction_line(entry: CompactionEntry) -> str:
    """`  2026-12-01 14:02  auto    31,200 -> 17,450 tokens  (40 -> 9 messages)  archive/...`."""
    if entry.tokens_before is not None and entry.tokens_after is not None:
        tokens = f"{entry.tokens_before:,} -> {entry.tokens_after:,} tokens"
        messages = f"({entry.messages_before} -> {entry.messages_after} messages)"
    else:
        tokens, messages = "tokens unknown", f"(-> {entry.messages_after} messages)"
    artifact = entry.artifact_path or "no artifact"
    return f"  {_when(entry.ts)}  {entry.trigger or '?':<8}  {tokens}  {messages}  {artifact}"


def _show_checkpoints(home: Path, session_id: str) -> None:
    """The session's checkpointed turns and the files each changed (`vtcode rewind` restores them)."""
    from vtcode.cli.rewind_cmd import checkpoint_lines
    from vtcode.store.checkpoints import CheckpointStore, TurnRecord

    store = CheckpointStore(home, session_id)
    turns = [r for r in store.records() if isinstance(r, TurnRecord)]
    if turns:
        from vtcode.runtime.rewind import turn_files

        sys.stdout.write(f"checkpoints ({len(turns)}; `vtcode rewind --to TURN` restores):\n")
        sys.stdout.write(checkpoint_lines(turns, turn_files(store)) + "\n")
