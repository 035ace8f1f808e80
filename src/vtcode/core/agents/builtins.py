"""The built-in subagent types as plain text (pure): what the `task` tool offers with no definition files.

Kept apart from `core.agents.definitions` (parsing, checks, the tool-name mapping) so that a session
with no agent folder can describe its `task` tool without loading any of that before its first request.
"""

from __future__ import annotations

from typing import NamedTuple

TASK_TOOL = "task"
READ_ONLY_TOOLS = ("read_file", "grep_files", "list_files")
# Claude Code's model aliases name models of one vendor; a child keeps its parent's model for them.
INHERIT_MODELS = frozenset({"inherit", "sonnet", "opus", "haiku"})


class Builtin(NamedTuple):
    """One built-in subagent type; `tools` None: the parent's tools."""

    name: str
    description: str
    prompt: str
    tools: tuple[str, ...] | None = None


BUILTINS = (
    Builtin(
        name="explore",
        description="Read-only exploration of the codebase: finds files, reads and searches them, and "
        "reports what it found. Use it to answer questions without filling your own context.",
        prompt="You are an exploration subagent. Investigate the codebase with the read-only tools you "
        "have and answer the brief precisely: name files and line numbers, quote what matters, and say "
        "what you could not find. You cannot change anything.",
        tools=READ_ONLY_TOOLS,
    ),
    Builtin(
        name="general",
        description="A general-purpose subagent with your tools, for a self-contained task that "
        "would otherwise fill your context.",
        prompt="You are a subagent working on one self-contained task for another agent. Do the task "
        "in the brief completely, then answer with what you did, what you found, the files you "
        "changed and anything left open.",
    ),
)
