"""`vtcode skills list [--json]` and `vtcode skills new NAME`: what a session would find, and a scaffold."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from vtcode.cli.subcommands import add_workspace_option, run_action
from vtcode.protocol.errors import UsageError

_SCAFFOLD = """---
name: {name}
description: Describe what this skill does and when to use it (the model reads this to decide).
---

# {title}

Steps the agent should follow when this skill is used.

1. Read `references/notes.md` for background.
2. Run `scripts/run.sh` when a script helps.
"""


def add_skills_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`vtcode skills list|new` on the command parser."""
    skills = commands.add_parser(
        "skills",
        help="list the skills and custom commands, or scaffold a skill",
        description="Skills (folders with a SKILL.md in .vtcode/skills, .agents/skills, .claude/skills "
        "from the workspace up to the project root, then $VTCODE_HOME/skills, ~/.agents/skills, "
        "~/.claude/skills and skills.paths) and custom commands (.vtcode/commands, .claude/commands, "
        ".gemini/commands, .opencode/commands, $VTCODE_HOME/commands, ~/.claude/commands, "
        "~/.codex/prompts). A project definition shadows a user one of the same name.",
    )
    actions = skills.add_subparsers(dest="skills_command", metavar="ACTION")
    listed = actions.add_parser(
        "list", help="every skill and command, its source, catalog state and problems"
    )
    listed.add_argument("--json", action="store_true", help="print JSON")
    new = actions.add_parser("new", help="create .vtcode/skills/NAME/SKILL.md (or under --user home)")
    new.add_argument("name", metavar="NAME", help="lowercase letters, digits and single hyphens")
    new.add_argument("--user", action="store_true", help="create it in $VTCODE_HOME/skills instead")
    add_workspace_option(listed, new)


def run_skills(args: argparse.Namespace, overrides: list[str]) -> int:
    """Dispatch one `vtcode skills` action."""
    return run_action("skills", {"list": _list, "new": _new}, args, overrides)


def _list(args: argparse.Namespace, overrides: list[str]) -> int:
    from vtcode.cli.inputs import workspace_dir
    from vtcode.cli.session_scope import chosen_context_window, workspace_scope
    from vtcode.config.environment import os_environ
    from vtcode.config.loader import load_settings
    from vtcode.core.definitions.catalog import catalog_state
    from vtcode.core.definitions.path_scope import patterns_of
    from vtcode.runtime.skills import load_session_skills

    workspace = workspace_dir(getattr(args, "workspace", None))
    env = os_environ()
    loaded = load_settings(workspace=workspace, env=env, overrides=overrides)
    skills = load_session_skills(
        workspace_scope(loaded, workspace, env),
        chosen_context_window(loaded, env),
        notice=lambda _: None,
        bodies=True,  # every problem of every file, the body's too
    )
    catalog = skills.catalog
    rows: list[dict[str, Any]] = []
    for definition in skills.discovery.everything():
        rows.append(
            {
                "name": definition.name,
                "kind": definition.kind,
                "scope": definition.scope,
                "source": definition.source,
                "path": definition.path,
                "description": definition.description,
                "argument_hint": definition.argument_hint,
                "catalog": catalog_state(definition, catalog),
                "paths": patterns_of(definition),  # the globs that load it for matching files
            }
        )
    report = {
        "definitions": rows,
        "catalog": {
            "budget_chars": catalog.budget,
            "used_chars": len(catalog.text),
            "listed": len(catalog.listed),
            "truncated": list(catalog.truncated),
            "omitted": list(catalog.omitted),
        },
        "trusted": skills.trusted,
        "diagnostics": [
            {"path": d.path, "severity": d.severity, "reason": d.reason} for d in skills.discovery.diagnostics
        ],
    }
    if args.json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
        return 0
    sys.stdout.write(_table(rows))
    sys.stdout.write(
        f"catalog: {len(catalog.text)} of {catalog.budget} characters, {len(catalog.listed)} skills listed, "
        f"{len(catalog.truncated)} truncated, {len(catalog.omitted)} omitted\n"
    )
    if not skills.trusted:
        sys.stdout.write(
            "workspace not trusted: project shell blocks, hooks and allowed-tools do nothing "
            '(trust it with [projects."<path>"] trust_mcp = true in $VTCODE_HOME/vtcode.toml)\n'
        )
    for d in skills.discovery.diagnostics:
        sys.stdout.write(f"{d.severity}: {d.path}: {d.reason}\n")
    return 0


def _table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no skills or commands found\n"
    lines = []
    for row in rows:
        hint = f" {row['argument_hint']}" if row["argument_hint"] else ""
        paths = f", paths: {', '.join(row['paths'])}" if row["paths"] else ""
        lines.append(
            f"/{row['name']}{hint}  [{row['kind']}, {row['source']}, {row['catalog']}{paths}]  "
            f"{row['description']}"
        )
    return "\n".join(lines) + "\n"


def _new(args: argparse.Namespace, overrides: list[str]) -> int:
    from vtcode.cli.inputs import workspace_dir
    from vtcode.config.environment import os_environ
    from vtcode.config.loader import load_settings
    from vtcode.core.definitions.model import name_problem, standard_problems

    name: str = args.name
    problem = name_problem(name)
    if problem is not None:
        raise UsageError(
            f"cannot create skill {name!r}: {problem}", hint="e.g. `vtcode skills new pdf-forms`"
        )
    workspace = workspace_dir(getattr(args, "workspace", None))
    if args.user:
        base = load_settings(workspace=workspace, env=os_environ(), overrides=overrides).home / "skills"
    else:
        base = workspace / ".vtcode" / "skills"
    folder = base / name
    if folder.exists():
        raise UsageError(f"{folder} already exists", hint="choose another name, or edit the skill there")
    (folder / "scripts").mkdir(parents=True)
    (folder / "references").mkdir()
    title = name.replace("-", " ").capitalize()
    (folder / "SKILL.md").write_text(_SCAFFOLD.format(name=name, title=title), encoding="utf-8")
    (folder / "references" / "notes.md").write_text(f"# Notes for {name}\n", encoding="utf-8")
    script = folder / "scripts" / "run.sh"
    script.write_text("#!/bin/sh\necho 'replace this script'\n", encoding="utf-8")
    script.chmod(0o755)
    problems = standard_problems((folder / "SKILL.md").read_text(encoding="utf-8"), name)
    if problems:  # the scaffold must itself follow the standard
        raise UsageError(f"the scaffold of {name!r} is not valid: {'; '.join(problems)}")
    sys.stdout.write(f"created {Path(folder) / 'SKILL.md'}\n")
    return 0
