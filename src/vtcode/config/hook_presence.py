"""Whether a launch has any hook source at all, decided with two `stat`s before the hook readers load.

Most workspaces have no hooks; reading them (`config.hook_sources`) imports the JSON dialect readers,
the matchers and the trust digests, which every `vtcode exec` would pay before its first request.
"""

from __future__ import annotations

from pathlib import Path

from vtcode.config.loader import LoadedConfig

HOOKS_JSON = "hooks.json"


def may_have_hooks(loaded: LoadedConfig, workspace: Path) -> bool:
    """False only when no source `config.hook_sources.load_hooks` reads can hold a hook: no `[[hooks]]`
    table in any config file, no `hooks.import`, no user or workspace `hooks.json`."""
    if loaded.hook_layers or loaded.settings.hooks.import_:
        return True
    return (loaded.home / HOOKS_JSON).exists() or (workspace / ".vtcode" / HOOKS_JSON).exists()
