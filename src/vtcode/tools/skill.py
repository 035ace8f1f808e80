"""`skill`: load a skill's instructions on use (progressive disclosure), or read one of its files.

The catalog in the system prompt names each skill; this tool returns the body (frontmatter removed),
the skill folder and a bounded listing of its files. `file` reads one file of the folder, so a user
skill outside the workspace is readable without an approval prompt (the call is a read) and without
opening `read_file` to the rest of the disk.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any

import msgspec

from vtcode.core.definitions.catalog import skill_content
from vtcode.core.definitions.model import Definition
from vtcode.instructions.definitions import definition_body, resources
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.model import ToolKind, ToolSpec
from vtcode.protocol.tool_parameters import tool_parameters
from vtcode.tools.arguments import parse_arguments
from vtcode.tools.base import CallDescription, ToolContext, ToolOutcome

RESOURCE_LIMIT = 50
FILE_MAX_BYTES = 64 * 1024


class _Args(msgspec.Struct, forbid_unknown_fields=True):
    # Advertised as an enum of the session's skills (`skill_spec`); another name is answered, not refused.
    name: Annotated[str, msgspec.Meta(description="The skill's name.")]
    args: Annotated[str, msgspec.Meta(description="Arguments for the skill, if it takes any.")] = ""
    file: Annotated[str | None, msgspec.Meta(description="A file of the skill folder to read.")] = None


def skill_spec(names: list[str]) -> ToolSpec:
    """The tool's spec; `name` is an enum of the skills the catalog offers."""
    return ToolSpec(
        name="skill",
        description=(
            "Load a skill listed under `## Skills` in the system prompt: returns its instructions, its "
            "folder and a listing of its files. Call it before working on a task that matches a skill's "
            "description, then follow the instructions. With `file` (a path listed in the skill's "
            "resources) it returns that file instead."
        ),
        parameters=tool_parameters(_Args, extra_json_schema={"name": {"enum": names}}),
    )


def activation_text(skill: Definition, args: str = "") -> str:
    """The `<skill_content>` block of `skill` with `args` placed (blocking: it reads the body and the
    folder). Raises `VtcodeError` when the `SKILL.md` cannot be used any more."""
    from vtcode.core.definitions.arguments import expand  # on first activation only: start-up time

    body, problem = definition_body(skill)
    if body is None:
        raise VtcodeError(f"skill {skill.name!r} cannot be loaded: {skill.path}: {problem}")
    expanded = expand(body, skill.style, args, skill.arguments)
    # Shell blocks of a skill body are not run when the model loads it: they are shown as written.
    rendered = "".join(part if isinstance(part, str) else f"!`{part.command}`" for part in expanded.parts)
    return wrapped(skill, rendered)


def wrapped(skill: Definition, body: str) -> str:
    """`body` (already expanded) as the `<skill_content>` block with the folder's file listing."""
    listed, total = resources(Path(skill.folder), RESOURCE_LIMIT)
    return skill_content(skill, body, listed, total)


class SkillTool:
    """Activates the session's skills."""

    def __init__(
        self,
        skills: Mapping[str, Definition],
        on_activated: Callable[[Definition, str, str], None] | None = None,
        is_loaded: Callable[[str, str], bool] | None = None,
    ) -> None:
        self._skills = {name: s for name, s in skills.items() if s.model_invocable}
        self._spec = skill_spec(sorted(self._skills))
        self._on_activated = on_activated
        self._is_loaded = is_loaded

    # Loading a skill changes nothing.
    kind: ToolKind = "read"

    @property
    def spec(self) -> ToolSpec:
        """Name, description (the skills offered) and JSON Schema parameters."""
        return self._spec

    def describe(self, arguments: dict[str, Any]) -> CallDescription:
        """The skill (and file) loaded."""
        name = arguments.get("name")
        file = arguments.get("file")
        shown = str(name) if isinstance(name, str) else "skill"
        return CallDescription(display=f"{shown}/{file}" if isinstance(file, str) and file else shown)

    async def run(self, arguments: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        """The skill's instructions, or one of its files; an unknown name is an error the model can fix."""
        try:
            args = parse_arguments(arguments, _Args)
        except VtcodeError as error:
            return ToolOutcome(error.message, is_error=True)
        skill = self._skills.get(args.name)
        if skill is None:
            known = ", ".join(sorted(self._skills)) or "none"
            return ToolOutcome(f"no skill named {args.name!r} (available: {known})", is_error=True)
        if args.file:
            return await asyncio.to_thread(_read_resource, skill, args.file)
        if self._is_loaded is not None and self._is_loaded(skill.name, args.args):
            return ToolOutcome(
                f"skill {skill.name!r} is already loaded: its instructions are above in this conversation"
            )
        try:
            text = await asyncio.to_thread(activation_text, skill, args.args)
        except VtcodeError as error:
            return ToolOutcome(error.message, is_error=True)
        if self._on_activated is not None:
            self._on_activated(skill, text, args.args)
        return ToolOutcome(text)


def _read_resource(skill: Definition, relative: str) -> ToolOutcome:
    folder = os.path.realpath(skill.folder)
    target = os.path.realpath(os.path.join(folder, relative))
    if os.path.commonpath([folder, target]) != folder:
        return ToolOutcome(f"{relative!r} is outside the skill folder {skill.folder}", is_error=True)
    path = Path(target)
    if not path.is_file():
        return ToolOutcome(f"no file {relative!r} in the skill folder {skill.folder}", is_error=True)
    try:
        data = path.read_bytes()[: FILE_MAX_BYTES + 1]
    except OSError as exc:
        return ToolOutcome(f"{relative!r} cannot be read ({exc.strerror})", is_error=True)
    if b"\0" in data[:8192]:
        return ToolOutcome(f"{relative!r} is a binary file ({path.stat().st_size} bytes)", is_error=True)
    text = data[:FILE_MAX_BYTES].decode("utf-8", errors="replace")
    more = f"\n[cut at {FILE_MAX_BYTES} bytes]" if len(data) > FILE_MAX_BYTES else ""
    return ToolOutcome(f"{skill.folder}/{relative}:\n{text}{more}")
