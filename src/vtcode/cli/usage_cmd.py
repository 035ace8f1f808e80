"""`vtcode usage [--session ID] [--json]`: what a stored session's model calls used and cost."""

from __future__ import annotations

import argparse
import sys
import time
import uuid

import msgspec

from vtcode.cli.config_warnings import show_config_warnings
from vtcode.cli.inputs import workspace_dir
from vtcode.config.environment import os_environ, resolve_home
from vtcode.config.loader import load_settings
from vtcode.core.usage_ledger import summarize
from vtcode.core.usage_text import table
from vtcode.protocol.errors import ExitCode, UsageError
from vtcode.providers.price_table import price_book
from vtcode.store.session import SessionStore
from vtcode.store.usage_file import read_usage


def run_usage(args: argparse.Namespace, overrides: list[str]) -> int:
    """Print the usage of `--session ID`, or of the workspace's latest session."""
    env = os_environ()
    workspace = workspace_dir(getattr(args, "workspace", None))
    loaded = load_settings(workspace=workspace, env=env, overrides=overrides)
    show_config_warnings(loaded.warnings)
    store = SessionStore(resolve_home(env), time.time, lambda: str(uuid.uuid4()))
    session_id = args.session or store.latest_for_workspace(workspace)
    if session_id is None:
        raise UsageError(
            f"no stored session for {workspace}",
            hint="name one with --session ID (`vtcode sessions list` shows them)",
        )
    handle = store.open(session_id)
    report = summarize(read_usage(handle.dir), session_id=handle.id, prices_taken=price_book().taken)
    if args.json:
        sys.stdout.write(msgspec.json.encode(report).decode("utf-8") + "\n")
        return ExitCode.OK
    sys.stdout.write(f"session {handle.id}\n" + "\n".join(table(report)) + "\n")
    return ExitCode.OK
