"""Every hook a session may run, from every source, with its trust state (SPEC section 10).

Sources, all added up: `[[hooks.EVENT]]` in the user file and the workspace files,
`$VTCODE_HOME/hooks.json`, the workspace's `.vtcode/hooks.json`, and, when the user file says
`hooks.import = [...]`, the workspace's `.claude/settings.json` / `.claude/settings.local.json`,
`.codex/hooks.json` / `.codex/config.toml` and `.gemini/settings.json`. Hooks of the user's own files
run as they are; every other hook runs only when `[projects."<workspace>".hooks]` in the user file
records its digest (event, matcher, handler and the bytes of the workspace scripts it runs), so a
changed hook or script asks again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vtcode.config.hook_json import Dialect, JsonHooks, read_hook_json, read_hook_toml
from vtcode.config.hook_presence import HOOKS_JSON
from vtcode.config.hook_programs import missing_program
from vtcode.config.loader import LoadedConfig
from vtcode.core.hooks.digest import command_words, hook_digest, program_words
from vtcode.core.hooks.model import ConfiguredHook, HookEvent, HookHandler, HookSet, HookSource
from vtcode.protocol.errors import ConfigError

IMPORT_FILES: dict[str, tuple[tuple[str, Dialect], ...]] = {
    "claude": ((".claude/settings.json", "claude"), (".claude/settings.local.json", "claude")),
    "codex": ((".codex/hooks.json", "codex"), (".codex/config.toml", "codex")),
    "gemini": ((".gemini/settings.json", "gemini"),),
}
_PROJECT_VARS = (
    "${VTCODE_PROJECT_DIR}",
    "$VTCODE_PROJECT_DIR",
    "${CLAUDE_PROJECT_DIR}",
    "$CLAUDE_PROJECT_DIR",
)
_MAX_SCRIPT_BYTES = 16 * 1024 * 1024
_NEVER_TRUSTED = (
    "its hooks are skipped (no hook of this workspace is trusted, so none would run); "
    "fix the file before `vtcode hooks trust`"
)


@dataclass(frozen=True)
class LoadedHooks:
    """The session's hooks and what the user should know about them (skipped entries)."""

    hooks: HookSet
    warnings: tuple[str, ...] = ()


def load_hooks(
    loaded: LoadedConfig,
    workspace: Path,
    *,
    trust_all: bool = False,
    env: Mapping[str, str] | None = None,
) -> LoadedHooks:
    """Every configured hook, digested and marked trusted or not; bad files raise ConfigError.

    With `env` (the hooks' environment), a hook that will run and whose program is missing is warned
    about now, not found out on the call it should have guarded.
    """
    found: list[tuple[HookEvent, str, HookHandler, HookSource]] = []
    warnings: list[str] = []
    for layer in loaded.hook_layers:
        source = HookSource("workspace" if layer.workspace else "user", layer.source)
        for event, groups in layer.groups.items():
            for group in groups:
                found.extend((event, group.matcher, handler, source) for handler in group.hooks)
    files: list[tuple[Path, Dialect, HookSource]] = []
    user_json = loaded.home / HOOKS_JSON
    files.append((user_json, "vtcode", HookSource("user", str(user_json))))
    workspace_json = workspace / ".vtcode" / HOOKS_JSON
    if workspace_json.resolve() != user_json.resolve():
        files.append((workspace_json, "vtcode", HookSource("workspace", str(workspace_json))))
    for name in loaded.settings.hooks.import_:
        for relative, dialect in IMPORT_FILES[name]:
            path = workspace / relative
            files.append((path, dialect, HookSource("import", str(path))))
    project = loaded.settings.projects.get(str(workspace))
    trusted = set(project.hooks) if project is not None else set()
    reads: list[tuple[Dialect, JsonHooks, HookSource]] = []
    for path, dialect, source in files:
        try:
            read = read_hook_toml(path, dialect) if path.suffix == ".toml" else read_hook_json(path, dialect)
        except ConfigError as exc:
            # A bad file of the user's, or of a workspace whose hooks run (some trusted, or trusted
            # for this run), may hold a guard: nothing runs without it. A workspace none of whose
            # hooks were ever trusted would not run them anyway, so it must not stop vtcode.
            if not source.needs_trust or trust_all or trusted:
                raise
            warnings.append(f"{exc.message}; {_NEVER_TRUSTED}")
            continue
        reads.append((dialect, read, source))
    # As in Claude Code, `disableAllHooks` in either settings file (often the personal `.local` one)
    # turns off the hooks of both.
    off = next((s.path for d, r, s in reads if d == "claude" and r.disable_all), None)
    if off is not None:
        warnings.append(
            f"{off}: disableAllHooks is set, so no Claude Code hook of this workspace is imported"
        )
    for dialect, read, source in reads:
        if off is not None and dialect == "claude":
            continue
        warnings.extend(read.warnings)
        for entry in read.groups:
            found.extend((entry.event, entry.matcher, handler, source) for handler in entry.handlers)
    hooks: list[ConfiguredHook] = []
    for event, matcher, handler, source in found:
        if not source.needs_trust:
            hooks.append(ConfiguredHook(event, matcher, handler, source))
            continue
        digest = digest_of(event, matcher, handler, workspace)
        ok = trust_all or digest in trusted
        hooks.append(ConfiguredHook(event, matcher, handler, source, digest=digest, trusted=ok))
    if env is not None:
        warnings.extend(_missing_programs(hooks, workspace, env))
    return LoadedHooks(HookSet(tuple(hooks)), tuple(warnings))


def _missing_programs(
    hooks: Sequence[ConfiguredHook], workspace: Path, env: Mapping[str, str]
) -> Iterator[str]:
    """One warning per runnable hook whose program does not exist."""
    seen: set[HookHandler] = set()
    for hook in hooks:
        if not hook.trusted or hook.handler in seen:
            continue
        seen.add(hook.handler)
        word = missing_program(hook.handler, workspace, env, lambda w: expand_project_dir(w, workspace))
        if word is None:
            continue
        then = (
            "it blocks every call it matches (on_failure = block)"
            if hook.handler.on_failure == "block"
            else "it will fail on every run and the action goes on without it"
        )
        yield (
            f"hook `{hook.handler.display}` ({hook.event} from {hook.source.path}): `{word}` was not "
            f"found; {then}"
        )


def digest_of(event: HookEvent, matcher: str, handler: HookHandler, workspace: Path) -> str:
    """The trust digest of a hook as its files are now (read again before every run)."""
    return hook_digest(event, matcher, handler, _scripts(handler, workspace))


def expand_project_dir(word: str, workspace: Path) -> str:
    """`${VTCODE_PROJECT_DIR}/x` (or the Claude Code spelling) with the workspace put in."""
    for var in _PROJECT_VARS:
        word = word.replace(var, str(workspace))
    return word


def _scripts(handler: HookHandler, workspace: Path) -> Sequence[bytes]:
    """The bytes of every workspace script the handler runs, in word order: a file in a program's
    place (or an interpreter's operand), or any executable file it names (`timeout 5 ./guard.sh`)."""
    root = os.path.realpath(workspace)
    programs = program_words(handler)
    found: list[bytes] = []
    for word in dict.fromkeys((*command_words(handler), *programs)):
        expanded = expand_project_dir(word, workspace)
        candidate = os.path.realpath(os.path.join(workspace, expanded))
        if not candidate.startswith(root + os.sep) or not os.path.isfile(candidate):
            continue
        if word not in programs and not os.access(candidate, os.X_OK):
            continue
        try:
            with open(candidate, "rb") as handle:
                found.append(handle.read(_MAX_SCRIPT_BYTES))
        except OSError:
            found.append(b"\0unreadable")
    return found
