"""`/name args` typed by a person (TUI, ACP, `vtcode exec "/name args"`), expanded at the start of its turn.

A skill's body is injected directly (even one hidden from the model), a command's placeholders are
filled, `@path` files are inlined and shell blocks run as `exec_command` calls, so they pass approval
and the sandbox and the command shows. In a workspace the user has not trusted, project definitions
are text only: shell blocks, frontmatter hooks and `allowed-tools` do nothing, and a notice says so.
`allowed-tools` become grants of the invoking turn only. Imported at the first input that starts with
`/`: a session that never types one does not load it (start-up time).
"""

from __future__ import annotations

import asyncio
import difflib
import json
import os
import re
from pathlib import Path

import msgspec

from vtcode.core.approvals import Grant
from vtcode.core.definitions.arguments import Expansion, expand
from vtcode.core.definitions.model import Definition, numbering_problems
from vtcode.core.definitions.names import BUILTIN_COMMANDS
from vtcode.core.slash_line import split_slash
from vtcode.instructions.definitions import definition_body
from vtcode.protocol.messages import ToolCall
from vtcode.runtime.skills import SessionSkills
from vtcode.tools.skill import wrapped

INCLUDE_MAX_BYTES = 32 * 1024
INCLUDES_MAX_BYTES = 128 * 1024
_INCLUDE = re.compile(r"(?<![\w@])@\{([^}\n]+)\}|(?<![\w@`])@([\w.~-][\w./~-]*[\w/-])")
_SHELL_TOOL = "exec_command"


class Invocation(msgspec.Struct, frozen=True):
    """`/name args` as typed."""

    name: str
    args: str


def parse_invocation(text: str) -> Invocation | None:
    """The `/name args` of `text`, or None when it does not start with one (`//x` is text)."""
    split = split_slash(text)
    if split is None:
        return None
    name = split[0].strip()
    if not name or "/" in name:
        return None  # a path such as /etc/hosts is not a command
    return Invocation(name, split[1])


async def expand_invocation(skills: SessionSkills, text: str) -> str:
    """`text` with a leading `/name args` replaced by what the skill or command of `skills` says."""
    invocation = parse_invocation(text)
    if invocation is None:
        return text
    # The first lookup reads the command files: off the event loop.
    await skills.read_commands()
    definition = skills.lookup(invocation.name)
    if definition is None:
        if skills.warn_unknown:
            skills.notice(_not_found(skills, invocation.name))
        return text
    body = definition.body
    if body is None:  # a skill's body is read on use
        body, problem = await asyncio.to_thread(definition_body, definition)
        if body is None:
            skills.notice(f"/{definition.name}: {definition.path} cannot be used ({problem})")
            return text
    active = skills.usable(definition)
    if definition.has_hooks:
        skills.activate_hooks(definition, active)
    if definition.allowed_tools:
        allow_tools(skills, definition, active)
    if definition.style == "claude" and invocation.args and not definition.arguments:
        for problem in numbering_problems(body):  # said where it matters: an argument is lost now
            skills.notice(f"/{definition.name}: {problem}")
    expansion = expand(body, definition.style, invocation.args, definition.arguments)
    outputs = await _run_shell_blocks(skills, definition, expansion, active)
    text = expansion.text(outputs)
    if definition.kind == "skill":
        content = await asyncio.to_thread(wrapped, definition, text)
        skills.note_activation(definition, content, invocation.args)
        return content
    return await asyncio.to_thread(_inline_files, skills.discovery_root, text)


def _not_found(skills: SessionSkills, name: str) -> str:
    """What a `/name` that names nothing is told: it goes to the model as typed (a typo costs a turn)."""
    if name.lower() in BUILTIN_COMMANDS:
        return f"/{name} is a command of the terminal UI; the text was sent to the model as typed"
    if name in skills.found.skills:
        return f"/{name}: the skill says `user-invocable: false` (only the model loads it); sent as typed"
    names = [*skills.found.skills, *skills.discovery.commands]
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    guess = f" (did you mean /{close[0]}?)" if close else ""
    return f"no skill or command named /{name}{guess}; the text was sent to the model as typed"


def allow_tools(skills: SessionSkills, definition: Definition, active: bool) -> None:
    """Grant `definition`'s `allowed-tools` until the turn ends, or say why they are not applied."""
    if not active:
        skills.notice(
            f"/{definition.name}: allowed-tools ({' '.join(definition.allowed_tools)}) not applied: "
            "this workspace is not trusted"
        )
        return
    for rule in definition.allowed_tools:
        grant = grant_of(rule)
        if grant is not None and skills.grant is not None and skills.grant(grant):
            skills.turn_grants.append(grant)


async def _run_shell_blocks(
    skills: SessionSkills, definition: Definition, expansion: Expansion, active: bool
) -> list[str]:
    outputs: list[str] = []
    for command in expansion.commands:
        if not active or skills.run_call is None:
            skills.notice(
                f"/{definition.name}: shell block not run (this workspace is not trusted): {command}"
            )
            outputs.append(f"[shell command not run: this workspace is not trusted: `{command}`]")
            continue
        skills.shell_calls += 1
        call = ToolCall(
            id=f"slash_{definition.name}_{skills.shell_calls}",
            name=_SHELL_TOOL,
            arguments=json.dumps({"cmd": command}),
        )
        result = await skills.run_call(call)
        outputs.append(shell_block_text(result.content))
    return outputs


def shell_block_text(content: str) -> str:
    """What replaces a shell block: the command's output as text, as Claude Code and Gemini CLI put it,
    not the JSON the model gets for its own `exec_command` calls; how it ended follows in brackets."""
    try:
        result = json.loads(content)
    except ValueError:
        return content
    if not isinstance(result, dict):
        return content
    if not isinstance(result.get("output"), str):
        error = result.get("error")
        return f"[shell command failed: {error}]" if isinstance(error, str) else content
    notes = []
    if result.get("exit_code") not in (None, 0):
        notes.append(f"[exit code {result['exit_code']}]")
    if result.get("signal"):
        notes.append(f"[killed by signal {result['signal']}]")
    if result.get("is_exited") is False:
        notes.append(f"[still running as command session {result.get('session_id')}]")
    for key in ("sandbox_note", "critical_note", "spool_note"):
        if isinstance(result.get(key), str):
            notes.append(f"[{result[key]}]")
    if isinstance(result.get("spool_path"), str):
        notes.append(f"[whole output: {result['spool_path']}]")
    return "\n".join([result["output"].rstrip("\n"), *notes]).strip("\n")


def _inline_files(root: str, text: str) -> str:
    """`text` with each `@path` of a workspace file replaced by the file (bounded, inside `root`)."""
    workspace = Path(root)
    budget = INCLUDES_MAX_BYTES

    def include(match: re.Match[str]) -> str:
        nonlocal budget
        raw = match.group(1) or match.group(2)
        path = Path(os.path.realpath(workspace / raw))
        if not path.is_file() or workspace not in (path, *path.parents) or budget <= 0:
            return match.group(0)
        try:
            data = path.read_bytes()[: min(INCLUDE_MAX_BYTES, budget)]
        except OSError:
            return match.group(0)
        if b"\0" in data:
            return match.group(0)
        budget -= len(data)
        body = data.decode("utf-8", errors="replace")
        return f'<file path="{raw}">\n{body}\n</file>'

    return _INCLUDE.sub(include, text)


def grant_of(rule: str) -> Grant | None:
    """The session grant an `allowed-tools` rule stands for: `Bash(git diff:*)` is commands that start
    with `git diff`; `Edit`/`Write` are the edit tools; reads need none."""
    match = re.fullmatch(r"(\w+)(?:\((.*)\))?", rule.strip())
    if match is None:
        return None
    tool, pattern = match.group(1), match.group(2)
    if tool in ("Bash", "exec_command"):
        prefix = (pattern or "").removesuffix("*").removesuffix(":").strip()
        return Grant("prefix", prefix) if prefix else Grant("tool", _SHELL_TOOL)
    if tool in ("Edit", "MultiEdit", "apply_patch"):
        return Grant("tool", "apply_patch")
    if tool in ("Write", "write_file"):
        return Grant("tool", "write_file")
    return None
