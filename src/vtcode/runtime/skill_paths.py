"""Path-scoped skills load themselves: after a file tool reads, writes or edits a file that matches a
skill's `paths` globs, the skill's instructions join the conversation as the `skill` tool would return
them, once per session.

The trigger is the one path-scoped rules use: the paths a tool call reports on its result
(`MessageMeta.paths`), here only those of the file tools (a command's folder names no file). The
instructions come after the tool batch as a context message, so the next request carries them; a skill
the model already loaded (or one loaded by an earlier match) is not loaded again, and after a compaction
the newest activation is re-attached like any other. In a workspace the user has not trusted the
instructions load as text, as they do through the `skill` tool: frontmatter hooks stay inert, with the
same notice.
"""

from __future__ import annotations

import asyncio
import posixpath
from collections.abc import Callable, Sequence
from pathlib import Path

from vtcode.core.definitions.path_scope import PathScope, path_scopes
from vtcode.protocol.errors import VtcodeError
from vtcode.protocol.messages import Message, MessageMeta, ToolResultMessage, UserMessage
from vtcode.runtime.hooks import AfterToolBatch, TurnHooks
from vtcode.runtime.skills import SessionSkills
from vtcode.tools.skill import activation_text

FILE_TOOLS = frozenset({"read_file", "write_file", "apply_patch"})
"""The tools whose reported paths are files worked on (read, written or edited)."""


def attach_path_skills(
    skills: SessionSkills,
    *,
    hooks: TurnHooks,
    project_root: Path,
    history: Sequence[Message] = (),
    inform: Callable[[str], None] = lambda _: None,
) -> None:
    """Load path-scoped skills after the tool batches that work on matching files; nothing without any.

    `history` is a resumed session's: the skills it already carries are not loaded again. `inform`
    tells the user which skill loaded and why (an informational notice).
    """
    found = path_scopes(skills.found.skills.values())
    for problem in found.problems:
        skills.notice(f"skills: {problem}")
    if not found.scopes:
        return
    carried = "\n".join(m.content for m in history if isinstance(m, (UserMessage, ToolResultMessage)))
    for scope in found.scopes:
        if f'<skill_content name="{scope.skill.name}">' in carried:
            skills.loaded.add((scope.skill.name, ""))
    activation = PathActivation(skills, found.scopes, project_root=str(project_root), inform=inform)
    hooks.after_tool_batch.append(activation.after_tool_batch)


class PathActivation:
    """Matches the files of each tool batch against the path-scoped skills and loads the new ones."""

    def __init__(
        self,
        skills: SessionSkills,
        scopes: Sequence[PathScope],
        *,
        project_root: str,
        inform: Callable[[str], None],
    ) -> None:
        self._skills = skills
        self._scopes = scopes
        self._root = posixpath.normpath(project_root)
        self._inform = inform

    async def after_tool_batch(self, batch: AfterToolBatch) -> Sequence[Message]:
        """The instructions of the skills this batch's files newly match, as context messages."""
        files = [
            path
            for result in batch.results
            if result.name in FILE_TOOLS and not result.is_error
            for path in result.meta.paths
        ]
        relatives = [r for r in (self._relative(path) for path in files) if r is not None]
        added: list[Message] = []
        for scope in self._scopes:
            skill = scope.skill
            if any(name == skill.name for name, _ in self._skills.loaded):
                continue  # in the conversation already, whatever loaded it
            matched = scope.first_match(relatives)
            if matched is None:
                continue
            try:
                text = await asyncio.to_thread(activation_text, skill)
            except VtcodeError as error:
                self._skills.notice(f"skills: {error.message}")
                continue
            self._skills.activated(skill, text)
            self._inform(f"skill {skill.name} loaded: {matched} matches its paths")
            added.append(UserMessage(text, meta=MessageMeta(kind="context")))
        return added

    def _relative(self, path: str) -> str | None:
        """`path` (workspace-relative, or absolute in an added folder) relative to the project root."""
        joined = posixpath.normpath(posixpath.join(self._skills.discovery_root, path))
        if not joined.startswith(self._root.rstrip("/") + "/"):
            return None  # outside the project: no project-relative path for the globs to match
        return joined[len(self._root.rstrip("/")) + 1 :]
