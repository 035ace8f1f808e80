"""Built-in prompt commands: `/init` typed in any front end stands for a prompt vtcode ships (pure).

Like a custom command, it is expanded when its turn starts, so the TUI, `vtcode exec "/init"` and an
editor over ACP behave alike, with or without skill folders. Its name is reserved
(`core.definitions.names.BUILTIN_COMMANDS`): a custom command called `init` is ignored with a notice.
"""

from __future__ import annotations

from vtcode.core.slash_line import split_slash

INIT_PROMPT = """\
Write an `AGENTS.md` at the root of this repository: the guide a new contributor, human or coding \
agent, reads before changing anything here. If an `AGENTS.md` (or a `CLAUDE.md`) already exists, \
improve it in place: keep what is still true, correct what is not, add what is missing.

Learn the facts from the repository itself (its build and package files, CI configuration, scripts, \
existing docs and code); do not guess, and leave out what you could not confirm. Cover:
- what the project is and how it is laid out: the main folders and what belongs in each;
- the exact commands to set up, build, lint, type-check and test, and how to run a single test;
- the conventions the code follows (style, naming, error handling, how tests are written) and the \
rules a change must respect;
- the pitfalls a newcomer would hit.

Keep it concise and specific to this project (about 300 lines at most): commands in code blocks, no \
generic advice. When you are done, say in a few lines what you wrote or changed."""

INIT_DESCRIPTION = "the agent studies the repository and writes or improves its AGENTS.md"
"""What `/help` and an editor's `/` menu say of `/init`."""

PROMPT_COMMANDS = frozenset({"init"})
"""The names `expand_prompt_command` answers for (the TUI's `/help` lists them with its own)."""


def expand_prompt_command(text: str) -> str | None:
    """The prompt that `text` (`/init` and any words after it, which narrow the task) stands for; None
    when `text` is not a built-in prompt command."""
    split = split_slash(text)
    if split is None or split[0].lower() not in PROMPT_COMMANDS:
        return None
    focus = split[1]
    if not focus:
        return INIT_PROMPT
    return f"{INIT_PROMPT}\n\nThe user adds: {focus}"
