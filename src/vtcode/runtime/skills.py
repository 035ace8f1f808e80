"""A session's skills and custom commands: catalog, `skill` tool, trust, hooks, re-attachment.

Discovery runs once when the session is wired. The catalog joins the project appendix (sorted and
budgeted, so it is byte-identical while the skills are). `/name args` typed by a person is expanded at
the start of its turn by `runtime.skill_invocation`, imported at the first input that starts with `/`.
In a workspace the user has not trusted, project definitions are text only: shell blocks, frontmatter
hooks and `allowed-tools` do nothing, and a notice says so. `allowed-tools` become grants of the
invoking turn only; they turn an approval prompt into an allow, never a deny rule or read-only mode.
Frontmatter hooks likewise run from the activation to the end of its turn (`runtime.skill_hooks`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

import msgspec

from vtcode.config.project_trust import project_trusted
from vtcode.core.approvals import Grant
from vtcode.core.definitions.catalog import Catalog, build_catalog, catalog_budget
from vtcode.core.definitions.model import Definition
from vtcode.core.definitions.names import BUILTIN_COMMANDS
from vtcode.core.instructions.model import Diagnostic
from vtcode.instructions.definition_folders import DefinitionRoots, definition_roots
from vtcode.instructions.definitions import Discovery, discover_commands, discover_skills
from vtcode.protocol.messages import Message, MessageMeta, ToolCall, ToolResultMessage, UserMessage
from vtcode.runtime.compaction import Compactor
from vtcode.runtime.hooks import TurnEnd, TurnHooks, TurnStart, TurnStartHook
from vtcode.runtime.tool_dispatch import ToolDispatcher
from vtcode.runtime.turn import TurnRunner
from vtcode.runtime.workspace_scope import WorkspaceScope
from vtcode.tools.skill import SkillTool

if TYPE_CHECKING:
    from vtcode.runtime.skill_hooks import NewHooks, TurnSkillHooks

REATTACH_MAX_CHARS = 20_000  # about 5,000 tokens a skill
REATTACH_TOTAL_CHARS = 100_000  # about 25,000 tokens in all


class SessionSkills(msgspec.Struct):
    """The definitions of one session and what using them did.

    Commands are read on first use (a `/name`, `/skills`, the menu): they are not in the prompt, so a
    session that never types one never reads them.
    """

    found: Discovery
    catalog: Catalog
    trusted: bool
    discovery_root: str
    """The workspace, symlinks resolved: `@path` includes stay inside it."""
    notice: Callable[[str], None] = lambda _: None
    run_call: Callable[[ToolCall], Awaitable[ToolResultMessage]] | None = None
    grant: Callable[[Grant], bool] | None = None
    revoke: Callable[[Grant], bool] | None = None
    roots: DefinitionRoots | None = None
    turn_hooks: TurnSkillHooks | None = None
    """Made by `new_turn_hooks` when a skill with hooks is first activated (start-up time)."""
    new_turn_hooks: Callable[[], TurnSkillHooks] | None = None
    activations: dict[str, str] = msgspec.field(default_factory=dict)
    loaded: set[tuple[str, str]] = msgspec.field(default_factory=set)
    turn_grants: list[Grant] = msgspec.field(default_factory=list)
    shell_calls: int = 0
    warn_unknown: bool = False
    """Say when a `/name` names nothing (`vtcode exec`, where no menu shows what exists; in the TUI
    `//text` sends `/text` on purpose)."""

    reading: asyncio.Future[None] | None = None

    @property
    def discovery(self) -> Discovery:
        """Every skill and command (reading the commands the first time, on the calling thread)."""
        for message in self._read_commands():
            self.notice(message)
        return self.found

    async def read_commands(self) -> None:
        """Read the command files once, off the event loop; what is wrong with them is reported on it
        (a notice is an event, and events are emitted on the loop's thread only)."""
        if self.reading is None:
            if self.roots is None:
                return
            self.reading = asyncio.ensure_future(self._read_and_report())
        await asyncio.shield(self.reading)

    async def _read_and_report(self) -> None:
        for message in await asyncio.to_thread(self._read_commands):
            self.notice(message)

    def _read_commands(self) -> list[str]:
        """Read the commands if not done yet (blocking); the notices their problems call for."""
        roots, self.roots = self.roots, None
        if roots is None:
            return []
        known = len(self.found.diagnostics)
        discover_commands(roots, self.found)
        messages = []
        problems = _problems(self.found.diagnostics[known:])
        for name in sorted(set(self.found.commands) & BUILTIN_COMMANDS):
            command = self.found.commands.pop(name)
            messages.append(f"command /{name} ({command.path}) is ignored: a built-in command has that name")
            # Also among the problems `/skills` and `vtcode skills list` show, which see no notices.
            reason = f"ignored: /{name} is a built-in command"
            self.found.diagnostics.append(Diagnostic(command.path, "warning", reason))
        return messages + problems

    @property
    def path_scoped(self) -> bool:
        """Whether a skill has `paths` globs (only then is `runtime.skill_paths` wired, and imported)."""
        return any(skill.paths for skill in self.found.skills.values())

    @property
    def catalog_text(self) -> str:
        """What the project appendix carries (empty without model-invocable skills)."""
        return self.catalog.text

    def for_child(self, notice: Callable[[str], None]) -> SessionSkills:
        """The same skills, catalog and trust for a subagent's session, with its own record of what its
        conversation carries (activations, loaded skills) and nothing wired yet."""
        return SessionSkills(self.found, self.catalog, self.trusted, self.discovery_root, notice=notice)

    def tool(self) -> SkillTool | None:
        """The `skill` tool, when the catalog offers any skill."""
        if not self.catalog.listed:
            return None
        offered = {name: self.found.skills[name] for name in self.catalog.listed}
        return SkillTool(offered, on_activated=self.model_activated, is_loaded=self.is_loaded)

    def activated(self, skill: Definition, text: str, args: str = "") -> None:
        """The model got `skill`'s instructions (the `skill` tool, a path): note them, start its hooks."""
        self.note_activation(skill, text, args)
        if skill.has_hooks:
            self.activate_hooks(skill, self.usable(skill))

    def model_activated(self, skill: Definition, text: str, args: str = "") -> None:
        """The model loaded `skill` with the `skill` tool: as `activated`, and its `allowed-tools` hold
        for the rest of the turn, as when a person types `/name` (Claude Code applies them either way)."""
        self.activated(skill, text, args)
        if skill.allowed_tools:
            from vtcode.runtime.skill_invocation import allow_tools

            allow_tools(self, skill, self.usable(skill))

    def note_activation(self, skill: Definition, text: str, args: str = "") -> None:
        """Remember the newest activation of `skill` (re-attached after a compaction)."""
        self.activations.pop(skill.name, None)
        self.activations[skill.name] = text
        self.loaded.add((skill.name, args))

    def is_loaded(self, name: str, args: str) -> bool:
        """Whether the model already has this activation in its history (dedupe: "already loaded")."""
        return (name, args) in self.loaded

    def lookup(self, name: str) -> Definition | None:
        """The user-invocable skill or command called `name`."""
        skill = self.found.skills.get(name)
        if skill is not None and skill.user_invocable:
            return skill
        commands = self.discovery.commands
        command = commands.get(name)
        if command is None and name and ":" not in name:
            # Claude Code once ran `.claude/commands/frontend/component.md` as `/component`: the one
            # namespaced command of that name still answers to it.
            nested = [c for key, c in commands.items() if key.endswith(f":{name}")]
            command = nested[0] if len(nested) == 1 else None
        return command

    def usable(self, definition: Definition) -> bool:
        """Whether shell blocks, hooks and `allowed-tools` of `definition` may act."""
        return self.trusted or definition.scope == "user"

    async def expand_input(self, text: str) -> str:
        """`text` with a leading `/name args` replaced by what the skill or command says."""
        if not text.lstrip().startswith("/"):
            return text  # most input: the expansion code is not even imported
        from vtcode.runtime.skill_invocation import expand_invocation

        return await expand_invocation(self, text)

    def activate_hooks(self, definition: Definition, active: bool) -> None:
        if active and self.turn_hooks is None and self.new_turn_hooks is not None:
            self.turn_hooks = self.new_turn_hooks()
        if not active or self.turn_hooks is None:
            self.notice(
                f"/{definition.name}: its frontmatter hooks do nothing (this workspace is not trusted)"
            )
            return
        for note in self.turn_hooks.activate(definition):
            self.notice(note)

    def end_turn(self) -> None:
        """Take back the grants `allowed-tools` gave and the hooks skills added for the turn that ends."""
        if self.turn_hooks is not None:
            self.turn_hooks.end_turn()
        for grant in self.turn_grants:
            if self.revoke is not None:
                self.revoke(grant)
        self.turn_grants.clear()

    def reattach(self, messages: Sequence[Message]) -> list[Message]:
        """`messages` (a compacted history) with the newest activation of each used skill, once."""
        present = "\n".join(m.content for m in messages if isinstance(m, (UserMessage, ToolResultMessage)))
        extra: list[Message] = []
        total = 0
        for name, text in reversed(self.activations.items()):
            marker = f'<skill_content name="{name}">'
            if marker in present:
                continue
            kept = text if len(text) <= REATTACH_MAX_CHARS else text[:REATTACH_MAX_CHARS] + "\n[cut]"
            if total + len(kept) > REATTACH_TOTAL_CHARS:
                break
            total += len(kept)
            extra.append(UserMessage(kept, meta=MessageMeta(kind="context")))
        kept_names = {name for name in self.activations if f'<skill_content name="{name}">' in present}
        kept_names |= {
            name for name in self.activations if any(f'name="{name}">' in m.content for m in extra)
        }
        self.loaded = {key for key in self.loaded if key[0] in kept_names}
        if not extra:
            return list(messages)
        # After the leading user messages (context, summary): never between a tool call and its result.
        at = next((i for i, m in enumerate(messages) if not isinstance(m, UserMessage)), len(messages))
        return [*messages[:at], *extra, *messages[at:]]


def load_session_skills(
    scope: WorkspaceScope,
    context_window: int,
    notice: Callable[[str], None],
    *,
    bodies: bool = False,
    roots: DefinitionRoots | None = None,
) -> SessionSkills:
    """Discover the definitions of a session and report their problems once (blocking I/O). Skill
    bodies are read on use unless `bodies` (`vtcode skills list`: every problem of every file).
    `roots` are the scope's (`definition_roots` of it) when the caller has them; the catalog's budget
    is a share of the model's `context_window`."""
    settings, workspace = scope.settings, scope.workspace
    if roots is None:
        roots = definition_roots(workspace, scope.home, scope.user_home, settings.skills.paths)
    found = discover_skills(roots, bodies=bodies)
    for name in sorted(set(found.skills) & BUILTIN_COMMANDS):
        notice(f"skill {name}: /{name} runs the built-in command; the model can still load the skill")
    _report(found.diagnostics, notice)
    budget = catalog_budget(context_window, settings.skills.catalog_budget)
    catalog = build_catalog(list(found.skills.values()), budget)
    if catalog.omitted or catalog.truncated:
        notice(
            f"skills: the catalog budget ({budget} characters) shortened {len(catalog.truncated)} "
            f"description(s) and left out {len(catalog.omitted)} skill(s); /skills lists them"
        )
    trusted = project_trusted(settings, workspace)
    return SessionSkills(found, catalog, trusted, os.path.realpath(workspace), notice=notice, roots=roots)


def _report(diagnostics: Sequence[Diagnostic], notice: Callable[[str], None]) -> None:
    for message in _problems(diagnostics):
        notice(message)


def _problems(diagnostics: Sequence[Diagnostic]) -> list[str]:
    return [f"skills: {d.path}: {d.reason}" for d in diagnostics if d.severity != "info"]


def attach_skills(
    skills: SessionSkills,
    *,
    dispatcher: ToolDispatcher,
    runner: TurnRunner,
    hooks: TurnHooks,
    compactor: Compactor,
    new_hooks: NewHooks | None = None,
) -> None:
    """Plug the session's skills into its turn loop: `/name` expansion, turn grants and hooks,
    re-attachment. `new_hooks` makes the session's hook dispatcher when it has none yet."""

    def grant(new: Grant) -> bool:
        if new in dispatcher.grants.listed():
            return False  # the user's own grant: not taken back when the turn ends
        dispatcher.grants = dispatcher.grants.with_grant(new)
        skills.notice(f"allowed for this turn by a skill's allowed-tools: {new.describe()}")
        return True

    skills.run_call = dispatcher.run_call
    skills.grant = grant
    skills.revoke = dispatcher.revoke
    runner.expand_input = skills.expand_input
    attach_activations(
        skills, dispatcher=dispatcher, runner=runner, hooks=hooks, compactor=compactor, new_hooks=new_hooks
    )


def skill_mention_hook(skills: SessionSkills, inform: Callable[[str], None]) -> TurnStartHook:
    """`$name` in a prompt loads that skill (`runtime.skill_mentions`, imported when a prompt has `$`)."""

    async def turn_start(start: TurnStart) -> Sequence[Message]:
        if "$" not in start.text:
            return []
        from vtcode.runtime.skill_mentions import skill_mentions

        return await skill_mentions(skills, start, inform)

    return turn_start


def attach_activations(
    skills: SessionSkills,
    *,
    dispatcher: ToolDispatcher,
    runner: TurnRunner,
    hooks: TurnHooks,
    compactor: Compactor,
    new_hooks: NewHooks | None,
) -> None:
    """What activating a skill needs in a session, a parent's or a subagent's: its frontmatter hooks
    from the activation to the end of the turn, and re-attachment after a compaction."""

    async def end_of_turn(_: TurnEnd) -> None:
        skills.end_turn()

    def new_turn_hooks() -> TurnSkillHooks:
        from vtcode.runtime.skill_hooks import TurnSkillHooks

        return TurnSkillHooks(dispatcher=dispatcher, runner=runner, compactor=compactor, new_hooks=new_hooks)

    skills.new_turn_hooks = new_turn_hooks
    hooks.end_of_turn.append(end_of_turn)
    compactor.reattach = skills.reattach
