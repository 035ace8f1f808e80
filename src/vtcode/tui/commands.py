"""Slash commands: what each one is called, takes, and says about itself (`/help`)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from vtcode.core.prompt_commands import INIT_DESCRIPTION
from vtcode.core.slash_line import split_slash


@dataclass(frozen=True)
class SlashCommand:
    """A parsed `/name argument` line."""

    name: str
    argument: str
    typed: str = ""
    """The name as typed (case and alias kept): what a skill or custom command is looked up by."""


COMMANDS: dict[str, str] = {
    "help": "keys and commands",
    "new": "start a new session in this workspace",
    "resume": "reopen a stored session (a picker, or /resume ID)",
    "compact": "compact the history now",
    "jobs": "command sessions: list, show output, wait, kill",
    "memory": "instruction sources and diagnostics for the paths touched so far",
    "hooks": "lifecycle hooks: source, trust and digest",
    "skills": "skills and custom commands: source, catalog budget, what was cut, problems",
    "status": "provider, model, tokens, context pressure, cost, approval and sandbox modes",
    "usage": "tokens, API time and cost by source and model (also /cost, /stats)",
    "permissions": "approval and sandbox modes; list and revoke what you allowed for this session",
    "model": "/model NAME: use NAME from the next turn",
    "profile": "/profile NAME: use the prompt profile NAME from the next turn",
    "steer": "/steer TEXT: deliver TEXT at the running turn's next boundary",
    "init": f"/init [FOCUS]: {INIT_DESCRIPTION}",
    "rewind": "undo turns: code and/or conversation (Esc Esc; /undo)",
    "redo": "put back the files the last /rewind changed",
    "pause": "hold the agent before its next step (input waits); again: go on",
    "quit": "end the session and leave",
}

# Other names people know these commands by (Claude Code, Gemini CLI, peers' names for the same view).
ALIASES: dict[str, str] = {
    "undo": "rewind",
    "checkpoint": "rewind",
    "restore": "rewind",
    "cost": "usage",
    "stats": "usage",
    "exit": "quit",
    "clear": "new",
    "commands": "skills",
}

KEYS = (
    ("Enter", "send (queued while a turn runs)"),
    ("Alt+Enter, Ctrl+S", "send as steering for the running turn"),
    ("Ctrl+J, Shift+Enter", "new line"),
    ("Up / Down", "previous / next input"),
    ("Tab", "complete a /command or an @path, else go to pending input"),
    ("!cmd", "run cmd in your shell (no approval)"),
    ("e / d", "pending input: edit / remove the highlighted"),
    ("Esc", "interrupt the turn (twice: no grace)"),
    ("Esc Esc", "between turns, nothing typed: /rewind"),
    ("Ctrl+C", "clear the draft (Up brings it back); else interrupt; twice in 2 s quits"),
    ("PageUp / PageDown", "scroll the transcript"),
    ("Home / End", "top / bottom of the transcript (when the composer is empty)"),
    ("click a command", "its whole output"),
    ("approvals", "y once · Ctrl+A for the session · n deny with a reason · Esc deny"),
)


def parse(text: str) -> SlashCommand | None:
    """The slash command `text` is, or None when it is ordinary input (`//x` sends `/x`, `/etc/x` is text)."""
    split = split_slash(text)
    if split is None or "/" in split[0]:
        return None  # a path such as /etc/hosts is text, as the runtime reads it (`parse_invocation`)
    name = split[0].lower() or "help"  # a lone `/` asks what there is
    return SlashCommand(name=ALIASES.get(name, name), argument=split[1], typed=split[0])


def help_text() -> str:
    """What `/help` shows."""
    width = max(len(k) for k, _ in KEYS)
    lines = ["Keys", ""]
    lines += [f"  {key:<{width}}  {what}" for key, what in KEYS]
    lines += ["", "Commands", ""]
    lines += [f"  /{name:<9} {what}" for name, what in COMMANDS.items()]
    lines += ["", "Esc closes this view."]
    return "\n".join(lines)


def unknown_command_text(name: str) -> str:
    """What an unknown `/name` gets: the nearest command names, how to send it as text."""
    close = difflib.get_close_matches(name, list(COMMANDS), n=2, cutoff=0.5)
    guess = " or ".join(f"/{c}" for c in close)
    hint = f"did you mean {guess}? " if guess else ""
    return f"unknown command /{name} ({hint}/help lists them; //text sends /text)"


def matching_commands(prefix: str) -> list[str]:
    """Command names that start with `prefix` (without the slash), in /help order."""
    return [name for name in COMMANDS if name.startswith(prefix.lower())]
