"""The hook-trust dialog: run the workspace's (and imported) lifecycle hooks from now on, or not now.

Trusting records each hook's digest in the user file, exactly as `vtcode hooks trust` does (one
function, `config.user_file.trust_hooks`); a hook or script changed afterwards has another digest and
asks again. "Not now" keeps them off for this run and the session's warning names each one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from vtcode.config.user_file import trust_hooks
from vtcode.core.hooks.model import ConfiguredHook
from vtcode.protocol.errors import VtcodeError
from vtcode.runtime.wiring import SessionOptions
from vtcode.tui.confirm_dialog import ConfirmDialog
from vtcode.tui.safe import safe_text

HookTrustAnswer = Literal["trust", "not_now"]
# How the app shows a dialog and waits for its answer, and how it tells the user something went wrong.
Ask = Callable[["HookTrustScreen"], Awaitable[HookTrustAnswer | None]]
Warn = Callable[[str], Awaitable[None]]


class HookTrustScreen(ConfirmDialog[HookTrustAnswer]):
    """Lists the untrusted hooks (event, matcher, command, source file); dismissed with the answer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "grant('trust')", "trust these hooks"),
        Binding("n,escape", "decline('not_now')", "not now"),
    ]

    def __init__(self, workspace: str, hooks: tuple[ConfiguredHook, ...]) -> None:
        super().__init__()
        self.workspace = workspace
        self.hooks = hooks

    def body(self) -> Text:
        """The question, each hook, and the keys that answer it."""
        body = Text()
        body.append("Run this workspace's hooks?\n", style="bold")
        body.append(f"{safe_text(self.workspace)} configures commands vtcode would run:\n", style="dim")
        for hook in self.hooks:
            matcher = f" [{safe_text(hook.matcher)}]" if hook.matcher else ""
            body.append(f"  {hook.event}{matcher}: {safe_text(hook.handler.display)}\n")
            body.append(f"      from {safe_text(hook.source.path)} ({hook.digest[:12]})\n", style="dim")
        body.rstrip()
        return body

    def details(self) -> ComposeResult:
        """The keys that answer, kept on screen however many hooks there are."""
        keys = Text()
        keys.append("[t] trust them (saved in your config; a change asks again)\n", style="green")
        keys.append("[n] / [Esc] not now (they stay off for this run)", style="red")
        yield Static(keys, id="approval-keys")


async def options_after_hook_trust(
    options: SessionOptions, asked: set[Path], ask: Ask, warn: Warn
) -> SessionOptions:
    """Ask once per workspace in `asked` about its untrusted hooks; the options to open with."""
    untrusted = options.hooks.untrusted
    if not untrusted or options.workspace in asked:
        return options
    asked.add(options.workspace)
    answer = await ask(HookTrustScreen(str(options.workspace), untrusted))
    if answer != "trust":
        return options
    digests = frozenset(h.digest for h in untrusted)
    try:
        trust_hooks(options.home, options.workspace, sorted(digests))
    except VtcodeError as exc:
        await warn(exc.message)
        return options
    return replace(options, hooks=options.hooks.trusting(digests))
