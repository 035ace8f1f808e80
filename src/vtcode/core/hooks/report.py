"""The hooks of a session as text for people (`/hooks` in the TUI)."""

from __future__ import annotations

from vtcode.core.hooks.model import HookSet


def hooks_text(hooks: HookSet) -> str:
    """Every hook: event, matcher (and `if`), command, source file, and trust (with its digest)."""
    if not hooks:
        return (
            "No hooks configured.\n\nAdd [[hooks.EVENT]] tables to vtcode.toml or a .vtcode/hooks.json file."
        )
    lines: list[str] = []
    for hook in hooks.hooks:
        matcher = f" [{hook.matcher}]" if hook.matcher else ""
        matcher += f" if {hook.handler.if_}" if hook.handler.if_ else ""
        lines.append(f"{hook.event}{matcher}: {hook.handler.display}")
        if not hook.source.needs_trust:
            trust = "user hook"
        else:
            trust = f"{'trusted' if hook.trusted else 'NOT TRUSTED'} {hook.digest[:12]}"
        lines.append(f"    {trust}, {hook.source.kind} file {hook.source.path}")
    untrusted = len(hooks.untrusted)
    if untrusted:
        lines += ["", f"{untrusted} hook(s) do not run until trusted: run `vtcode hooks trust` in a shell."]
    return "\n".join(lines)
