"""`vtcode instructions [--path FILE]... [--json]`: which instruction sources apply, and why not others.

Also home to what `vtcode prompt` shares with it: the workspace, the settings and a prompt builder set
up exactly as a session would.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO, TypeVar

import msgspec

from vtcode.cli.config_warnings import show_config_warnings
from vtcode.cli.session_scope import chosen_context_window, workspace_scope
from vtcode.config.environment import os_environ
from vtcode.config.loader import load_settings
from vtcode.config.schema import Settings
from vtcode.instructions import InstructionsReport
from vtcode.protocol.errors import ExitCode, UsageError
from vtcode.protocol.model import ToolSpec
from vtcode.runtime.skills_start import session_skills
from vtcode.runtime.subagents import task_tool_for
from vtcode.runtime.system_prompt import SystemPromptBuilder
from vtcode.runtime.toolset import build_toolset

ReportT = TypeVar("ReportT", bound=msgspec.Struct)


def workspace_of(args: argparse.Namespace) -> Path:
    """The workspace (`--workspace`, else the current directory) as a real, existing directory."""
    value = getattr(args, "workspace", None)
    path = (Path(value).expanduser() if value else Path.cwd()).resolve()
    if not path.is_dir():
        raise UsageError(f"workspace {path} is not a directory")
    return path


def active_paths(values: Sequence[str] | None, workspace: Path) -> list[str]:
    """`--path` values as workspace-relative paths (most recent first, as given).

    A relative value is taken from the current directory when it exists there, else from the workspace;
    a path outside the workspace is a UsageError.
    """
    paths: list[str] = []
    for value in values or ():
        path = Path(value).expanduser()
        if not path.is_absolute():
            here = Path.cwd() / path
            path = here if here.exists() else workspace / path
        absolute = path.resolve()
        if not absolute.is_relative_to(workspace):
            # A session only ever touches files inside its workspace; anything else answers nothing.
            raise UsageError(
                f"--path {value}: {absolute} is outside the workspace {workspace}",
                hint="give a file or folder inside the workspace, or choose another with --workspace DIR",
            )
        paths.append(absolute.relative_to(workspace).as_posix())
    return paths


def tool_specs(
    settings: Settings, workspace: Path, home: Path | None = None, env: Mapping[str, str] | None = None
) -> list[ToolSpec]:
    """The tool schemas a session in `workspace` offers (they are part of the static cache key)."""
    toolset = build_toolset(settings, workspace, {})
    try:
        specs = [tool.spec for tool in toolset.tools]
    finally:
        asyncio.run(toolset.aclose())
    # The `task` tool lists the subagent types (their files' problems are the session's to report).
    home = home or workspace / ".vtcode"
    task = task_tool_for(
        workspace, home=home, env=env or {}, settings=settings, tools=toolset.tools, notice=lambda _: None
    )
    return specs if task is None else [*specs, task.spec]


def prompt_builder(
    args: argparse.Namespace, overrides: list[str], *, profile: str | None = None
) -> SystemPromptBuilder:
    """A builder configured like a session in the chosen workspace, with `--path` values as active."""
    workspace = workspace_of(args)
    env = os_environ()
    flags = {"agent.system_prompt_mode": profile} if profile else {}
    loaded = load_settings(workspace=workspace, env=env, overrides=overrides, flags=flags)
    show_config_warnings(loaded.warnings)
    tools = tool_specs(loaded.settings, workspace, loaded.home, env)
    scope = workspace_scope(loaded, workspace, env)
    skills = session_skills(scope, chosen_context_window(loaded, env), notice=lambda _: None)
    skill_tool = skills.tool() if skills is not None else None
    builder = SystemPromptBuilder(
        scope,
        tools=[*tools, skill_tool.spec] if skill_tool is not None else tools,
        catalog=skills.catalog_text if skills is not None else "",
    )
    builder.note_touched(active_paths(getattr(args, "path", None), workspace))
    return builder


def write_report(
    args: argparse.Namespace, report: ReportT, out: TextIO, as_text: Callable[[ReportT], str]
) -> int:
    """`report` on `out`: indented JSON with `--json`, else as text for a person; the exit code."""
    if getattr(args, "json", False):
        out.write(json.dumps(msgspec.to_builtins(report), ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(as_text(report))
    return ExitCode.OK


def run_instructions(args: argparse.Namespace, overrides: list[str], *, out: TextIO | None = None) -> int:
    """List the instruction sources that apply, in precedence order, with diagnostics."""
    out = out or sys.stdout
    report = prompt_builder(args, overrides).instructions_report()
    return write_report(args, report, out, format_report)


def format_report(report: InstructionsReport) -> str:
    """The report as text for a person."""
    used = sum(source.bytes for source in report.sources)
    lines = [
        f"project root  {report.project_root}",
        f"active paths  {', '.join(report.active_paths)}",
        f"budget        {used:,} of {report.budget_bytes:,} bytes used (agent.instruction_max_bytes)",
        "",
    ]
    if report.sources:
        lines.append("sources, lowest to highest precedence:")
        for number, source in enumerate(report.sources, 1):
            notes = [f"{source.bytes:,} bytes"]
            if source.truncated:
                notes.append("TRUNCATED" if source.bytes else "OMITTED (over budget)")
            if source.matched_by:
                notes.append("matched by " + ", ".join(source.matched_by))
            lines.append(f"  {number}. {source.path}  ({source.label})  {'; '.join(notes)}")
    elif report.budget_bytes == 0:
        lines.append("instructions disabled (agent.instruction_max_bytes = 0)")
    else:
        lines.append("no instruction sources apply")
    if report.diagnostics:
        lines += ["", "diagnostics:"]
        lines += [f"  {d.severity:<8} {d.path}: {d.reason}" for d in report.diagnostics]
    return "\n".join(lines) + "\n"
