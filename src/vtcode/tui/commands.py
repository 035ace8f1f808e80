"""Slash commands: what each one is called, takes, and says about itself (`/help`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SlashCommand:
    """A parsed `/name argument` line."""

    name: str
    argument: str


COMMANDS: dict[str, str] = {
    "help": "keys and commands",
    "new": "start a new session in this workspace",
    "resume": "reopen a stored session (a picker, or /resume ID)",
    "compact": "compact the history now",
    "jobs": "command sessions: list, show output, wait, kill",
    "memory": "instruction sources and diagnostics for the paths touched so far",
    "hooks": "lifecycle hooks: source, trust and digest",
    "status": "provider, model, tokens, context pressure, cost",
    "model": "/model NAME: use NAME from the next turn",
    "profile": "/profile NAME: use the prompt profile NAME from the next turn",
    "steer": "/steer TEXT: deliver TEXT at the running turn's next boundary",
    "pause": "hold the agent before its next step (input waits); again: go on",
    "quit": "end the session and leave",
}

KEYS = (
    ("Enter", "send (queued while a turn runs)"),
    ("Alt+Enter, Ctrl+S", "send as steering for the running turn"),
    ("Ctrl+J, Shift+Enter", "new line"),
    ("Up / Down", "previous / next input"),
    ("Tab", "complete an @path, else go to pending input"),
    ("e / d", "pending input: edit / remove the highlighted"),
    ("Esc", "interrupt the turn (twice: no grace)"),
    ("Ctrl+C", "interrupt or clear; twice in 2 s quits"),
    ("PageUp / PageDown", "scroll the transcript"),
)


def parse(text: str) -> SlashCommand | None:
    """The slash command `text` is, or None when it is ordinary input (`//x` sends `/x`)."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    name, _, argument = stripped[1:].partition(" ")
    return SlashCommand(name=name.lower(), argument=argument.strip())


def help_text() -> str:
    """What `/help` shows."""
    width = max(len(k) for k, _ in KEYS)
    lines = ["Keys", ""]
    lines += [f"  {key:<{width}}  {what}" for key, what in KEYS]
    lines += ["", "Commands", ""]
    lines += [f"  /{name:<9} {what}" for name, what in COMMANDS.items()]
    lines += ["", "Esc closes this view."]
    return "\n".join(lines)
