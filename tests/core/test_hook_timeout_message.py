"""A timed-out hook's warning names the timeout it ran into, its own or the event's default."""

from __future__ import annotations

from vtcode.core.hooks.model import HookHandler
from vtcode.core.hooks.outcome import HookResult, HookRun, read_run

TIMED_OUT = HookRun(exit_code=None, timed_out=True)


def test_a_hook_without_a_timeout_is_told_the_events_default() -> None:
    assert read_run("PreToolUse", HookHandler(command="guard.sh"), TIMED_OUT) == HookResult(
        "timed_out",
        warning="hook `guard.sh` failed, continuing without it: it ran longer than its timeout of 600 s",
    )
    prompt = read_run("UserPromptSubmit", HookHandler(command="ctx.sh"), TIMED_OUT)
    assert prompt.warning.endswith("its timeout of 30 s")


def test_a_hook_with_its_own_timeout_is_told_that_one() -> None:
    result = read_run("PreToolUse", HookHandler(command="guard.sh", timeout=2.5), TIMED_OUT)
    assert result.warning.endswith("its timeout of 2.5 s")
