"""Skills and custom commands as loaded definitions (pure): fields, validation against the standard.

A skill is a folder with a `SKILL.md` (Agent Skills standard); a custom command is one file (Claude
Code, Codex prompts, opencode markdown, Gemini TOML). Both become a `Definition`: the runtime treats a
command as a user-invocable skill that is never offered to the model.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import msgspec

from vtcode.core.definitions.frontmatter import flag_field, list_field, parse_frontmatter, text_field

Kind = Literal["skill", "command"]
Scope = Literal["project", "user"]
# Whose argument placeholders a body uses (reference section 5): Claude Code and vtcode's own files
# number from 0, Codex prompts and opencode from 1, Gemini uses `{{args}}`.
ArgumentStyle = Literal["claude", "codex", "opencode", "gemini"]

NAME_MAX = 64
DESCRIPTION_MAX = 1024
COMPATIBILITY_MAX = 500
_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")

SKILL_KEYS = frozenset(
    {
        "name",
        "description",
        "license",
        "compatibility",
        "metadata",
        "allowed-tools",
        "when_to_use",
        "argument-hint",
        "arguments",
        "disable-model-invocation",
        "user-invocable",
        "paths",
        "context",
        "agent",
        "hooks",
        "model",
    }
)
"""Keys vtcode reads (the standard's and Claude Code's); any other key is reported, not fatal."""


class Definition(msgspec.Struct, frozen=True, gc=False):
    """One skill or command, ready to list, catalog and invoke.

    A msgspec Struct, not a dataclass: a 20-field dataclass costs milliseconds to create at import,
    which every session with a skill folder pays before its first request. Not tracked by the garbage
    collector (`gc=False`): it holds plain data and is never part of a cycle, and hundreds of them made
    at start-up would otherwise bring collections forward.
    """

    name: str
    description: str
    body: str | None
    """The text after the frontmatter; None for a skill found at start-up, whose body is read from
    its `SKILL.md` when it is used (`instructions.definitions.definition_body`)."""
    path: str
    """The absolute path of the file (`SKILL.md` or the command file)."""
    folder: str
    """The skill folder (a command's folder is the one holding it)."""
    kind: Kind
    scope: Scope
    source: str
    """Which folder kind it came from, e.g. `.agents/skills` or `~/.codex/prompts`."""
    style: ArgumentStyle = "claude"
    when_to_use: str | None = None
    argument_hint: str | None = None
    arguments: tuple[str, ...] = ()
    model_invocable: bool = True
    user_invocable: bool = True
    allowed_tools: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    has_hooks: bool = False
    hooks: Any = None
    """The frontmatter `hooks` mapping as written (Claude Code's hooks shape), read when activated."""

    def __hash__(self) -> int:
        # `hooks` is a mapping (unhashable) and was never part of the identity of a definition.
        return hash((self.kind, self.scope, self.name, self.path))

    @property
    def catalog_text(self) -> str:
        """What the catalog says about the skill: its description, then when to use it."""
        if self.when_to_use:
            return f"{self.description} {self.when_to_use}".strip()
        return self.description


class Loaded(msgspec.Struct, frozen=True, gc=False):
    """A parsed file: the definition (None when it cannot be used) and problems to report."""

    definition: Definition | None
    problems: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    """Problems that kept the file from loading (the others are warnings)."""
    notes: tuple[str, ...] = ()
    """What is worth knowing but needs no fix (reported as info, not at every session start)."""


def name_problem(name: str) -> str | None:
    """Why `name` breaks the standard's naming rule (1-64 of `[a-z0-9-]`, no edge or double hyphen)."""
    if not name or len(name) > NAME_MAX:
        return f"the name must be 1-{NAME_MAX} characters"
    # str methods, not a regular expression: compiling one costs start-up time (a tenth of a ms).
    if not set(name) <= _NAME_CHARACTERS or name[0] == "-" or name[-1] == "-" or "--" in name:
        return "the name may hold only lowercase letters, digits and single inner hyphens"
    return None


STANDARD_KEYS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools"})
"""The keys the Agent Skills standard allows (what `skills-ref validate` accepts)."""


def standard_problems(text: str, folder_name: str) -> list[str]:
    """Why a `SKILL.md` fails the standard's strict rules (the `skills-ref validate` checks); [] if valid."""
    parsed = parse_frontmatter(text)
    if not parsed.has_frontmatter:
        return ["no frontmatter"]
    problems = list(parsed.diagnostics)
    fields = parsed.fields
    extra = sorted(set(fields) - STANDARD_KEYS)
    if extra:
        problems.append(f"unexpected fields: {', '.join(extra)}")
    name = fields.get("name")
    if not isinstance(name, str):
        problems.append("`name` is required")
    else:
        problem = name_problem(name)
        if problem is not None:
            problems.append(problem)
        if name != folder_name:
            problems.append(f"the name `{name}` must equal the folder name `{folder_name}`")
    description = fields.get("description")
    if not isinstance(description, str) or not description.strip():
        problems.append("`description` is required")
    elif len(description) > DESCRIPTION_MAX:
        problems.append(f"the description is over {DESCRIPTION_MAX} characters")
    compatibility = fields.get("compatibility")
    if compatibility is not None and (
        not isinstance(compatibility, str) or len(compatibility) > COMPATIBILITY_MAX
    ):
        problems.append(f"`compatibility` must be text of at most {COMPATIBILITY_MAX} characters")
    metadata = fields.get("metadata")
    if metadata is not None and not (
        isinstance(metadata, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())
    ):
        problems.append("`metadata` must map strings to strings")
    return problems


def load_skill(
    text: str,
    *,
    path: str,
    folder: str,
    folder_name: str,
    scope: Scope,
    source: str,
    keep_body: bool = True,
) -> Loaded:
    """A skill from its `SKILL.md` text, leniently (AS client guide): a bad name still loads, with a
    warning; a missing description skips the skill. Without `keep_body`, `text` needs to hold only the
    frontmatter and the body is left to be read on use."""
    parsed = parse_frontmatter(text)
    problems = list(parsed.diagnostics)
    fields = parsed.fields
    if not parsed.has_frontmatter:
        return Loaded(None, (), ("no frontmatter: a SKILL.md starts with `---`, `name` and `description`",))
    description = text_field(fields, "description")
    if description is None:
        return Loaded(None, tuple(problems), ("no `description`: the skill is skipped",))
    name = text_field(fields, "name") or folder_name
    problem = name_problem(name)
    if problem is not None:
        problems.append(f"{problem} (`{name}`)")
    if name != folder_name:
        problems.append(f"the name `{name}` differs from its folder `{folder_name}`")
    if len(description) > DESCRIPTION_MAX:
        problems.append(f"the description is over {DESCRIPTION_MAX} characters")
    compatibility = text_field(fields, "compatibility")
    if compatibility is not None and len(compatibility) > COMPATIBILITY_MAX:
        problems.append(f"`compatibility` is over {COMPATIBILITY_MAX} characters")
    problems.extend(key_problems(fields))
    definition = _definition(
        fields, name=name, description=description, body=parsed.body if keep_body else None, path=path,
        folder=folder, kind="skill", scope=scope, source=source, style="claude",
    )  # fmt: skip
    return Loaded(definition, tuple(problems))


def load_markdown_command(
    text: str, *, name: str, path: str, folder: str, scope: Scope, source: str, style: ArgumentStyle
) -> Loaded:
    """A command from a markdown file (Claude Code, Codex prompt, opencode); frontmatter is optional."""
    parsed = parse_frontmatter(text)
    fields = parsed.fields
    description = text_field(fields, "description") or _first_line(parsed.body)
    definition = _definition(
        fields, name=name, description=description, body=parsed.body, path=path, folder=folder,
        kind="command", scope=scope, source=source, style=style,
    )  # fmt: skip
    # Commands are shared with Claude Code users (a team's `.claude/commands`), so what vtcode leaves
    # aside is a note for `vtcode skills list` and `/skills`, and the numbering is said again on use.
    problems = [*parsed.diagnostics, *unknown_keys(fields)]
    notes = unapplied_keys(fields)
    if style == "claude" and not definition.arguments:
        notes.extend(numbering_problems(parsed.body))
    return Loaded(definition, tuple(problems), notes=tuple(notes))


def load_toml_command(text: str, *, name: str, path: str, folder: str, scope: Scope, source: str) -> Loaded:
    """A Gemini CLI command: TOML with a required `prompt` and an optional `description`."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return Loaded(None, (), (f"not valid TOML ({exc})",))
    prompt = data.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return Loaded(None, (), ("no `prompt`: the command is skipped",))
    description = data.get("description")
    text_description = description.strip() if isinstance(description, str) else _first_line(prompt)
    definition = Definition(
        name=name, description=text_description, body=prompt, path=path, folder=folder,
        kind="command", scope=scope, source=source, style="gemini", model_invocable=False,
    )  # fmt: skip
    return Loaded(definition)


def key_problems(fields: dict[str, Any]) -> list[str]:
    """What a user should hear about the frontmatter keys: `unknown_keys`, then `unapplied_keys`."""
    return [*unknown_keys(fields), *unapplied_keys(fields)]


def unknown_keys(fields: dict[str, Any]) -> list[str]:
    """The keys vtcode does not know, each said to be ignored."""
    return [f"unknown key `{key}` ignored" for key in sorted(set(fields) - SKILL_KEYS)]


def unapplied_keys(fields: dict[str, Any]) -> list[str]:
    """Claude Code's keys vtcode reads but does not act on (silence would let a user think a cheaper
    model or a subagent ran it)."""
    problems = []
    if text_field(fields, "model") is not None:
        problems.append("`model` is not applied: it runs with the session's model (`/model` switches)")
    if text_field(fields, "context") == "fork":
        problems.append("`context: fork` is not applied: it runs in the conversation, not a subagent")
    return problems


_SHORTHAND = r"(?<!\\)\$(\d+)"  # compiled on first use (`re` caches it): start-up time


def numbering_problems(body: str) -> list[str]:
    """A Claude Code body that uses `$1`.. but never `$0` was written for the old 1-based numbering:
    Claude Code (and vtcode) read `$1` as the second argument, so the first one would be lost."""
    numbers = {int(n) for n in re.findall(_SHORTHAND, body)}
    if not numbers or 0 in numbers or "$ARGUMENTS[0]" in body:
        return []
    first = min(numbers)
    return [
        f"`${first}` is argument {first + 1}: arguments count from `$0` (Claude Code's rule), and this "
        "file never uses `$0`, so the first argument is left out (renumber from `$0`, or use `$ARGUMENTS`)"
    ]


_OPTIONAL_KEYS = SKILL_KEYS - {"name", "description", "license", "compatibility", "metadata"}
"""The keys `_definition` reads besides name and description."""


def _definition(fields: dict[str, Any], **known: Any) -> Definition:
    kind: Kind = known["kind"]
    if fields.keys().isdisjoint(_OPTIONAL_KEYS):
        # Most files give only a name and a description: every other field keeps its default
        # (one set test instead of ten lookups a file, at start-up with hundreds of skills).
        return Definition(**known, model_invocable=kind == "skill")
    return Definition(
        **known,
        when_to_use=text_field(fields, "when_to_use"),
        argument_hint=_hint(fields.get("argument-hint")),
        arguments=list_field(fields, "arguments"),
        # A command is typed by a person; only skills are offered to the model.
        model_invocable=kind == "skill" and not flag_field(fields, "disable-model-invocation", False),
        user_invocable=flag_field(fields, "user-invocable", True),
        allowed_tools=tool_rules(fields.get("allowed-tools")),
        paths=list_field(fields, "paths", separator=","),
        has_hooks=bool(fields.get("hooks")),
        hooks=fields.get("hooks") or None,
    )


def _hint(value: Any) -> str | None:
    """`argument-hint` as written: Claude Code's own examples (`[message]`, `[pr] [priority]`) read as
    a YAML list (or, unparsable, a list the line reader made), so the brackets are put back."""
    if isinstance(value, list):
        items = [str(item).strip() for item in value if isinstance(item, (str, int, float))]
        return f"[{', '.join(items)}]" if items else None
    return text_field({"argument-hint": value}, "argument-hint")


_TOOL_RULE = r"[^\s,()]+(?:\([^)]*\))?"


def tool_rules(value: Any) -> tuple[str, ...]:
    """`allowed-tools` entries: a list, or a string split at spaces and commas outside parentheses."""
    if isinstance(value, list):
        return tuple(str(item).strip() for item in value if str(item).strip())
    if isinstance(value, str):
        # Compiled on first use (`re` caches it): most skills have no `allowed-tools`.
        return tuple(re.findall(_TOOL_RULE, value))
    return ()


def _first_line(body: str) -> str:
    for line in body.splitlines():
        text = line.strip().lstrip("#").strip()
        if text:
            return text[:120]
    return ""
