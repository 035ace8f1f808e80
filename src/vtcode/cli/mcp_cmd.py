"""`vtcode mcp list|add|remove`: the MCP servers of the user config, and whether they start."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import re
import sys
from pathlib import Path
from typing import Any

from vtcode.cli.subcommands import Action, run_action
from vtcode.config.environment import os_environ, resolve_home
from vtcode.config.loader import load_settings
from vtcode.config.user_file import remove_mcp_server, set_mcp_server
from vtcode.mcp.servers import plan_servers
from vtcode.protocol.errors import ExitCode, UsageError

_SERVER_NAME = re.compile(r"[A-Za-z0-9_-]+")


def run_mcp(args: argparse.Namespace, overrides: list[str]) -> int:
    """Dispatch one `vtcode mcp` action."""
    actions: dict[str, Action] = {
        "list": _list,
        # Editing the user's config file takes no --config overrides.
        "add": lambda args, _: _add(args),
        "remove": lambda args, _: _remove(args),
    }
    return run_action("mcp", actions, args, overrides)


def _list(args: argparse.Namespace, overrides: list[str]) -> int:
    env = os_environ()
    workspace = Path.cwd()
    loaded = load_settings(workspace=workspace, env=env, overrides=overrides)
    plan = plan_servers(loaded.settings, workspace, trust_project=args.trust_project_mcp)
    statuses: list[dict[str, Any]] = []
    if plan.servers:
        statuses = asyncio.run(_check(plan, env, workspace, loaded.settings))
    disabled = sorted(n for n, s in loaded.settings.mcp_servers.items() if not s.enabled)
    statuses.extend({"name": n, "state": "disabled", "tools": 0, "error": ""} for n in disabled)
    if args.json:
        payload = {"servers": statuses, "diagnostics": list(plan.diagnostics)}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
        return ExitCode.OK
    if not statuses:
        sys.stdout.write("no MCP servers configured (add one with `vtcode mcp add NAME -- CMD ARGS...`)\n")
    for status in statuses:
        line = f"{status['name']:<20} {status['state']:<9} {status['tools']:>3} tools"
        if status.get("target"):
            line += f"  {status['target']}"
        sys.stdout.write(line + "\n")
        if status["error"]:
            sys.stdout.write(f"{'':<20} last error: {status['error']}\n")
    for text in plan.diagnostics:
        sys.stderr.write(f"notice: mcp: {text}\n")
    return ExitCode.OK


async def _check(plan: Any, env: Any, workspace: Path, settings: Any) -> list[dict[str, Any]]:
    from vtcode.mcp.manager import McpManager

    manager = McpManager(plan, env=env, workspace=workspace, settings=settings.mcp)
    manager.start()
    try:
        timeout = max(s.settings.startup_timeout_seconds for s in plan.servers)
        await manager.wait_started(timeout + 1)
        started = manager.statuses()
    finally:
        await manager.aclose()
    # A server still starting was given up on at its deadline; closing it waited for the end of its
    # start, whose failure is the status worth showing.
    ended = {status.name: status for status in manager.statuses()}
    return [
        dataclasses.asdict(ended[status.name] if status.state == "starting" else status) for status in started
    ]


def _add(args: argparse.Namespace) -> int:
    # argparse's remainder also takes the options written after NAME: read them here.
    words = list(args.server_command)
    separated = "--" in words
    before = words[: words.index("--")] if separated else words
    extra = argparse.ArgumentParser(prog="vtcode mcp add", add_help=False)
    extra.add_argument("--json", action="store_true")
    extra.add_argument("--url")
    extra.add_argument("--env", action="append", default=[])
    extra.add_argument("--force", action="store_true")
    found, unknown = extra.parse_known_args(before)
    if separated and unknown:
        raise UsageError(f"mcp add: unexpected {' '.join(unknown)!r} before --", hint="vtcode mcp add --help")
    command = words[len(before) + 1 :] if separated else unknown
    args.json = args.json or found.json
    args.url = args.url or found.url
    args.env = [*args.env, *found.env]
    args.force = args.force or found.force
    check_server_name(args.name)
    if bool(command) == bool(args.url):
        raise UsageError(
            "mcp add needs either a command after -- or --url",
            hint="vtcode mcp add files -- npx -y @modelcontextprotocol/server-filesystem .",
        )
    server: dict[str, Any] = {"url": args.url} if args.url else {"command": command[0], "args": command[1:]}
    env: dict[str, str] = {}
    for pair in args.env:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--env {pair!r}: expected KEY=VALUE")
        env[key] = value
    if env:
        server["env"] = env
    path = set_mcp_server(resolve_home(os_environ()), args.name, server, replace=args.force)
    if args.json:
        sys.stdout.write(json.dumps({"added": args.name, "config": str(path), "server": server}) + "\n")
    else:
        sys.stdout.write(f"added MCP server {args.name!r} to {path}\n")
    return ExitCode.OK


def check_server_name(name: str) -> None:
    """A server name must read unambiguously in tool names (`mcp__NAME__tool`); UsageError otherwise."""
    if not _SERVER_NAME.fullmatch(name) or "__" in name:
        raise UsageError(
            f"MCP server name {name!r}: use letters, digits, - and single _ only",
            hint="tools are named mcp__NAME__TOOL, so spaces and __ in NAME would be ambiguous",
        )


def _remove(args: argparse.Namespace) -> int:
    removed = remove_mcp_server(resolve_home(os_environ()), args.name)
    if args.json:
        sys.stdout.write(json.dumps({"removed": args.name if removed else None}) + "\n")
    elif removed:
        sys.stdout.write(f"removed MCP server {args.name!r}\n")
    if not removed:
        raise UsageError(f"no MCP server named {args.name!r} in the user config", hint="vtcode mcp list")
    return ExitCode.OK
