"""Subagent definitions (pure): what a definition file says, checked, in vtcode's own tool names.

The native format is Claude Code's (`name`, `description`, `tools`, `disallowedTools`, `model`,
`maxTurns`, `permissionMode`, `skills`; the body is the agent's prompt), so `.claude/agents/*.md` files
load as they are, their tool names mapped to vtcode's (reference extensibility.md sections 3.5, 11.3).
A child's tools are its declared tools less the disallowed ones, and never more than its parent has.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from vtcode.core.agents.builtins import BUILTINS, INHERIT_MODELS, TASK_TOOL
from vtcode.core.approvals import APPROVAL_MODES, ApprovalMode

Origin = Literal["project", "user", "built-in"]

# Tools that act on the parent session itself: a child never gets them (its plan steps would replace the
# parent's plan; `task` is the depth limit).
PARENT_ONLY_TOOLS = frozenset({TASK_TOOL, "update_plan"})
# Claude Code's tool names (and a few of Gemini's and opencode's) in vtcode's ids.
FOREIGN_TOOLS: dict[str, tuple[str, ...]] = {
    "Read": ("read_file",),
    "Grep": ("grep_files",),
    "Glob": ("list_files",),
    "LS": ("list_files",),
    "Bash": ("exec_command", "write_stdin"),
    "Edit": ("apply_patch",),
    "MultiEdit": ("apply_patch",),
    "Write": ("write_file",),
    "WebFetch": ("web_fetch",),
    "Skill": ("skill",),
    "TodoWrite": ("update_plan",),
    "Task": (TASK_TOOL,),
    "Agent": (TASK_TOOL,),
    # Gemini CLI's names.
    "replace": ("apply_patch",),
    "run_shell_command": ("exec_command", "write_stdin"),
    "glob": ("list_files",),
    "list_directory": ("list_files",),
    "search_file_content": ("grep_files",),
    "grep_search": ("grep_files",),
    "read_many_files": ("read_file",),
    # opencode's names.
    "read": ("read_file",),
    "grep": ("grep_files",),
    "list": ("list_files",),
    "edit": ("apply_patch",),
    "patch": ("apply_patch",),
    "write": ("write_file",),
    "bash": ("exec_command", "write_stdin"),
    "webfetch": ("web_fetch",),
    "todowrite": ("update_plan",),
}
# Claude Code's permission modes as vtcode approval modes; a child may only be stricter than its parent.
PERMISSION_MODES: dict[str, ApprovalMode] = {
    "plan": "read-only",
    "default": "ask",
    "acceptEdits": "auto-edit",
    "dontAsk": "ask",
    "bypassPermissions": "full-auto",
    **{mode: mode for mode in APPROVAL_MODES},
}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class DefinitionProblem(ValueError):
    """A definition file that cannot be used; it is skipped with this message."""


@dataclass(frozen=True)
class AgentDefinition:
    """One subagent type. `tools` None: the parent's tools; `model` None: the parent's model."""

    name: str
    description: str
    prompt: str
    tools: tuple[str, ...] | None = None
    disallowed_tools: tuple[str, ...] = ()
    model: str | None = None
    max_turns: int | None = None
    permission_mode: ApprovalMode | None = None
    skills: tuple[str, ...] = ()
    origin: Origin = "built-in"
    source: str = "built-in"


BUILTIN_AGENTS = tuple(
    AgentDefinition(name=b.name, description=b.description, prompt=b.prompt, tools=b.tools) for b in BUILTINS
)


@dataclass(frozen=True)
class Parsed:
    """A definition and the problems that did not stop it from loading (unknown tool names)."""

    definition: AgentDefinition
    warnings: tuple[str, ...] = ()


def definition_from(
    keys: dict[str, Any],
    body: str,
    *,
    stem: str,
    origin: Origin,
    source: str,
    known_tool: Callable[[str], bool],
    known_model: Callable[[str], bool],
    foreign_model: bool = False,
) -> Parsed:
    """A definition from Claude Code's keys and a prompt; `foreign_model`: a file written for another
    agent, whose model names are its vendor's, so an unknown one means the parent's model (warned)."""
    name = _text(keys, "name") or stem
    if not _NAME.fullmatch(name):
        raise DefinitionProblem(f"`name` {name!r} is not a usable agent name (letters, digits, `-_.`)")
    description = _text(keys, "description")
    if not description:
        raise DefinitionProblem("`description` is missing: the model chooses agents by it")
    warnings: list[str] = []
    tools = _tools(keys, "tools", known_tool, warnings)
    disallowed = _tools(keys, "disallowedTools", known_tool, warnings) or ()
    if tools is not None and not [t for t in tools if t not in disallowed]:
        raise DefinitionProblem("no usable tools: every tool it names is unknown or disallowed")
    model = _text(keys, "model") or None
    if model is not None and model in INHERIT_MODELS:
        model = None
    if model is not None and not known_model(model):
        if not foreign_model:
            raise DefinitionProblem(f"unknown model {model!r} (not in the catalog or a [models] table)")
        warnings.append(f"model {model!r} is not in the catalog; the parent's model is used")
        model = None
    mode_name = _text(keys, "permissionMode")
    mode = PERMISSION_MODES.get(mode_name) if mode_name else None
    if mode_name and mode is None:
        raise DefinitionProblem(f"unknown permissionMode {mode_name!r}")
    return Parsed(
        AgentDefinition(
            name=name,
            description=description,
            prompt=body.strip(),
            tools=tools,
            disallowed_tools=disallowed,
            model=model,
            max_turns=_turns(keys.get("maxTurns")),
            permission_mode=mode,
            skills=tuple(_names(keys.get("skills"), "skills")),
            origin=origin,
            source=source,
        ),
        tuple(warnings),
    )


def child_tools(definition: AgentDefinition, parent: Iterable[str]) -> tuple[str, ...]:
    """The tools a child of `definition` gets: declared ∩ the parent's, less disallowed and the parent's own
    (`task`, `update_plan`)."""
    offered = [
        name for name in parent if name not in PARENT_ONLY_TOOLS and name not in definition.disallowed_tools
    ]
    if definition.tools is None:
        return tuple(offered)
    return tuple(name for name in offered if name in definition.tools)


def stricter(parent: ApprovalMode, wanted: ApprovalMode | None) -> ApprovalMode:
    """The stricter of two approval modes (a definition never loosens its parent's)."""
    if wanted is None:
        return parent
    return min(parent, wanted, key=APPROVAL_MODES.index)


def by_precedence(found: Iterable[AgentDefinition]) -> tuple[dict[str, AgentDefinition], list[str]]:
    """The first definition of each name wins (callers list project, then user, then built-in); two
    files of one folder naming the same agent are reported."""
    chosen: dict[str, AgentDefinition] = {}
    notes: list[str] = []
    for definition in found:
        first = chosen.get(definition.name)
        if first is None:
            chosen[definition.name] = definition
        elif posixpath.dirname(first.source) == posixpath.dirname(definition.source) != "":
            # Two files of one folder with one name; across folders, shadowing is the precedence.
            notes.append(
                f"{definition.source}: agent {definition.name!r} is already defined by {first.source}"
            )
    return chosen, notes


def _text(keys: dict[str, Any], key: str) -> str:
    value = keys.get(key)
    if value is None:
        return ""
    if not isinstance(value, str | int | float):
        raise DefinitionProblem(f"`{key}` must be text")
    return str(value).strip()


def _names(value: Any, key: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value if item.strip()]
    raise DefinitionProblem(f"`{key}` must be a comma-separated string or a list of names")


def _tools(
    keys: dict[str, Any], key: str, known_tool: Callable[[str], bool], warnings: list[str]
) -> tuple[str, ...] | None:
    """A tool list in vtcode names (None when the key is absent); unknown names are dropped, with a
    warning: a definition can only narrow what its child may use, never widen it by a typo."""
    if key not in keys:
        return None
    names: list[str] = []
    for raw in _names(keys[key], key):
        # `Bash(git *)`: Claude Code's per-command pattern; the tool is what counts here.
        base = raw.split("(", 1)[0].strip()
        mapped = FOREIGN_TOOLS.get(base, (base,))
        usable = [name for name in mapped if known_tool(name)]
        if not usable:
            warnings.append(f"`{key}`: unknown tool {raw!r} ignored")
        names.extend(name for name in usable if name not in names)
    return tuple(names)


def _turns(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise DefinitionProblem("`maxTurns` must be a positive integer")
    return value


def known_names(names: Collection[str]) -> Callable[[str], bool]:
    """A `known_tool` check over fixed names; MCP tools (`mcp__server__tool`) join later, so any is known."""
    return lambda name: name in names or name.startswith("mcp__")
