"""The command line's flags as a `SessionRequest`, for `exec`, the TUI and `vtcode acp` alike."""

from __future__ import annotations

import argparse

from vtcode.cli.inputs import workspace_dir
from vtcode.runtime.session_config import SessionRequest


def agent_flags(args: argparse.Namespace) -> dict[str, object]:
    """Dedicated flags as dotted config keys (the highest layer)."""
    pairs = {
        "agent.provider": args.provider,
        "agent.model": args.model,
        "agent.base_url": args.base_url,
        "agent.system_prompt_mode": args.profile,
        "agent.approval": args.approval,
        "agent.max_turns": args.max_turns,
        "sandbox.mode": args.sandbox,
    }
    return {key: value for key, value in pairs.items() if value is not None}


def session_request(args: argparse.Namespace, overrides: list[str]) -> SessionRequest:
    """What the command line asks for; a workspace that is no directory is a usage error."""
    return SessionRequest(
        workspace=workspace_dir(args.workspace),
        flags=agent_flags(args),
        overrides=tuple(overrides),
        resume=args.resume,
        continue_last=args.continue_last,
        trust_workspace_hooks=bool(getattr(args, "trust_workspace_hooks", False)),
        trust_project_mcp=bool(getattr(args, "trust_project_mcp", False)),
        add_dirs=tuple(getattr(args, "add_dir", None) or ()),
    )
