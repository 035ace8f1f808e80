"""`/hooks` in the TUI shows a hook's `if` condition next to its matcher, as `vtcode hooks list` does."""

from __future__ import annotations

from vtcode.core.hooks.model import ConfiguredHook, HookHandler, HookSet, HookSource
from vtcode.core.hooks.report import hooks_text


def test_the_hooks_panel_shows_an_if_condition() -> None:
    hook = ConfiguredHook(
        "PreToolUse",
        "Bash",
        HookHandler(command="no-push.sh", if_="Bash(git push *)"),
        HookSource("user", "/home/me/.vtcode/vtcode.toml"),
    )
    assert hooks_text(HookSet((hook,))) == (
        "PreToolUse [Bash] if Bash(git push *): no-push.sh\n"
        "    user hook, user file /home/me/.vtcode/vtcode.toml"
    )
