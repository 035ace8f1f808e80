"""A skill's frontmatter `hooks`, run while the turn that activated it lasts.

The frontmatter uses the shape of Claude Code's settings hooks (`PreToolUse: [{matcher, hooks:
[{type: command, command}]}]`). On activation (the `skill` tool or `/name`) in a trusted workspace, or
for a user skill, they join the session's hook set and the one hook dispatcher runs them; at the end of
the turn they are taken out again. A session without hooks of its own gets its dispatcher then, so the
hook machinery is still never imported by a session that never activates such a skill.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from vtcode.core.definitions.model import Definition

if TYPE_CHECKING:
    from vtcode.core.hooks.model import ConfiguredHook
    from vtcode.runtime.compaction import Compactor
    from vtcode.runtime.hook_dispatch import HookDispatch
    from vtcode.runtime.lifecycle_hooks import LifecycleHooks
    from vtcode.runtime.tool_dispatch import ToolDispatcher
    from vtcode.runtime.tool_hooks import ToolHooks
    from vtcode.runtime.turn import TurnRunner

NewHooks = Callable[[], "tuple[ToolHooks | None, LifecycleHooks | None]"]


def skill_hooks(definition: Definition, workspace: Path) -> tuple[list[ConfiguredHook], list[str]]:
    """The hooks `definition`'s frontmatter declares, trusted, and what is wrong with them.

    The caller has checked trust: a project skill's hook carries its digest, so a script changed
    during the turn does not run (the dispatcher checks it again before every run).
    """
    # Imported here: only a session that activates a skill with hooks needs the hook readers.
    from vtcode.config.hook_json import read_hook_mapping
    from vtcode.config.hook_sources import digest_of
    from vtcode.core.hooks.model import ConfiguredHook, HookSource
    from vtcode.protocol.errors import ConfigError

    path = Path(definition.path)
    try:
        read = read_hook_mapping(definition.hooks, path=path, dialect="claude")
    except ConfigError as error:
        return [], [f"/{definition.name}: its frontmatter hooks do nothing ({error.message})"]
    source = HookSource("user" if definition.scope == "user" else "workspace", str(path))
    hooks: list[ConfiguredHook] = []
    for group in read.groups:
        for handler in group.handlers:
            digest = (
                "" if not source.needs_trust else digest_of(group.event, group.matcher, handler, workspace)
            )
            hooks.append(ConfiguredHook(group.event, group.matcher, handler, source, digest=digest))
    return hooks, list(read.warnings)


class TurnSkillHooks:
    """Adds activated skills' hooks to the session's dispatcher and takes them out when the turn ends."""

    def __init__(
        self,
        *,
        dispatcher: ToolDispatcher,
        runner: TurnRunner,
        compactor: Compactor,
        new_hooks: NewHooks | None,
    ) -> None:
        self.dispatcher = dispatcher
        self.runner = runner
        self.compactor = compactor
        self.new_hooks = new_hooks
        self._added: list[ConfiguredHook] = []
        self._skills: set[str] = set()

    def activate(self, definition: Definition) -> list[str]:
        """Run `definition`'s hooks until the turn ends (once per turn); the notices to show."""
        if definition.path in self._skills:
            return []
        dispatch = self._dispatch()
        if dispatch is None:
            return [f"/{definition.name}: its frontmatter hooks do nothing (this session runs no hooks)"]
        hooks, notes = skill_hooks(definition, dispatch.workspace)
        if not hooks:
            return notes
        self._skills.add(definition.path)
        dispatch.add(hooks)
        self._added.extend(hooks)
        events = ", ".join(sorted({h.event for h in hooks}))
        return [*notes, f"/{definition.name}: its frontmatter hooks ({events}) run for this turn"]

    def end_turn(self) -> None:
        """Take the skills' hooks out again."""
        tool_hooks = self.dispatcher.hooks
        if self._added and tool_hooks is not None:
            tool_hooks.dispatch.remove(self._added)
        self._added.clear()
        self._skills.clear()

    def _dispatch(self) -> HookDispatch | None:
        if self.dispatcher.hooks is None and self.new_hooks is not None:
            # The session had no hooks: give it a dispatcher now (empty once the turn ends).
            tool_hooks, lifecycle = self.new_hooks()
            if tool_hooks is not None:
                tool_hooks.dispatch.permission_mode = lambda: self.dispatcher.policy.mode
            self.dispatcher.hooks = tool_hooks
            if self.runner.lifecycle is None:
                self.runner.lifecycle = lifecycle
            if self.compactor.hooks is None:
                self.compactor.hooks = lifecycle
        return None if self.dispatcher.hooks is None else self.dispatcher.hooks.dispatch
