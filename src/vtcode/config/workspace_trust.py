"""What a workspace config file may set: it may tighten policy, never loosen it, never route credentials.

`<workspace>/vtcode.toml` and `<workspace>/.vtcode/vtcode.toml` arrive with `git clone`, so they are
written by whoever wrote the repository, not by the user. Left with full authority, a repository could
send the user's API key to its own server (`[agent] base_url`, `[providers.x]`) or run commands without
asking (`agent.approval = "full-auto"`, `[approvals] allow = ["*"]`). So each workspace layer is checked
against the merged layers below it (defaults, the user file and, for the top-level file, the `.vtcode/`
one). A key that would loosen approval is ignored with a warning naming it (a cloned repository must not
stop vtcode, and ignoring it is the safe outcome); any other key it may not set is a ConfigError (exit 2):

| key                         | in a workspace file                                                      |
| --------------------------- | ------------------------------------------------------------------------ |
| `agent.base_url`            | refused: it decides where requests, and the API key with them, are sent  |
| `[providers.*]` (any key)   | refused, for the same reason (so a workspace cannot define a provider)   |
| `agent.provider`            | a built-in name, or one the user defined; see `check_provider_switch`    |
| `agent.approval`            | only as strict as the value below or stricter; a looser one is ignored   |
| `approvals.allow`           | ignored, with a warning                                                  |
| `approvals.deny`            | added to the deny rules below, never replacing them                      |
| `agent.instruction_files`   | only paths inside the workspace: no `~`, no `..`, absolute only inside   |
| `pty.preferred_shell`       | refused: every approved command would run through that program           |
| `sandbox.mode`              | only as strict as the value below or stricter                            |
| `sandbox.network`           | only `false`, or `true` when it is already `true` below                  |
| `sandbox.writable_roots`    | refused: it would let commands write outside the workspace               |
| `sandbox.allow_unix_sockets`| refused: tmux's socket or the session bus would run commands unconfined |
| `[mcp_servers]`             | ignored with a warning: it starts programs the user never chose          |
| `mcp.trust_read_only_hints` | `true` ignored with a warning unless already `true` below: it lets tools |
|                             | that call themselves read-only run without approval                      |
| `[projects]`                | ignored with a warning: a project cannot trust itself                    |
| `skills.paths`              | refused: it would load skill folders from outside the repository         |
| `tools.web_fetch`           | `true` ignored with a warning when `false` below                         |
| `[pricing]`                 | ignored with a warning: prices decide what a USD budget counts           |

Everything else (model, prompt profile, context budget, timeouts, ...) a repository may set as before.
The environment, `-c` and flags are the user's own, and `$VTCODE_HOME/vtcode.toml` is the user's file:
all of those keep full authority, and being higher layers they still override anything a workspace sets.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from vtcode.config.layers import FLAGS_SOURCE
from vtcode.config.schema import AgentSettings, SandboxSettings, Settings
from vtcode.config.validation import KeyPath, describe_value, format_key
from vtcode.core.approvals import APPROVAL_MODES
from vtcode.core.sandbox_policy import SANDBOX_MODES, is_tighter_or_equal
from vtcode.protocol.errors import ConfigError

_USER_FILE = "$VTCODE_HOME/vtcode.toml"
_DEFAULT_ORIGIN = "the default"

_CREDENTIALS_HINT = (
    "a repository's config could otherwise send your API key to a server of its choosing; "
    "remove the key from this file"
)
_SEPARATORS = re.compile(r"[\\/]")


class RestrictedLayer(msgspec.Struct, frozen=True):
    """A workspace file's table as it may be merged, and a warning for each key that was ignored."""

    table: dict[str, Any]
    warnings: tuple[str, ...] = ()


def restrict_workspace_layer(
    table: Mapping[str, Any],
    *,
    source: str,
    below: Mapping[str, Any],
    origins: Mapping[KeyPath, str],
    workspace: Path,
) -> RestrictedLayer:
    """The validated table of a workspace file as it may be merged; a key it may not set raises ConfigError.

    `below` is the merged table of the layers under this one and `origins` names the layer that set
    each of its keys, so a message can say whose value a workspace tried to loosen.
    """
    _check_endpoints(table, source=source)
    agent: Mapping[str, Any] = table.get("agent", {})
    for entry in agent.get("instruction_files", ()):
        _check_instruction_file(entry, source=source, workspace=workspace)
    _check_shell(table, source=source)
    _check_skill_paths(table, source=source)
    _check_sandbox(table.get("sandbox", {}), source=source, below=below, origins=origins)
    warnings: list[str] = []
    kept = dict(table)
    if "approval" in agent:
        looser = _looser_approval(agent["approval"], source=source, below=below, origins=origins)
        if looser is not None:
            warnings.append(looser)
            kept["agent"] = {key: value for key, value in agent.items() if key != "approval"}
    approvals: Mapping[str, Any] = table.get("approvals", {})
    if "allow" in approvals:
        warnings.append(
            f"{source}:approvals.allow: ignored: a workspace config cannot let commands run without "
            f"approval; put allow rules in {_USER_FILE} or pass -c 'approvals.allow=[\"...\"]'"
        )
        kept["approvals"] = {key: value for key, value in approvals.items() if key != "allow"}
    mcp: Mapping[str, Any] = table.get("mcp", {})
    if (
        mcp.get("trust_read_only_hints") is True
        and below.get("mcp", {}).get("trust_read_only_hints") is not True
    ):
        origin = origins.get(("mcp", "trust_read_only_hints"), _DEFAULT_ORIGIN)
        warnings.append(
            f"{source}:mcp.trust_read_only_hints: ignored: true would let MCP tools that call themselves "
            f"read-only run without approval, loosening false set by {origin}, and a workspace config may "
            f"only tighten approval; set it in {_USER_FILE} or with -c"
        )
        kept["mcp"] = {key: value for key, value in mcp.items() if key != "trust_read_only_hints"}
    tools: Mapping[str, Any] = table.get("tools", {})
    if tools.get("web_fetch") is True and below.get("tools", {}).get("web_fetch", True) is False:
        origin = origins.get(("tools", "web_fetch"), _DEFAULT_ORIGIN)
        warnings.append(
            f"{source}:tools.web_fetch: ignored: a workspace config cannot turn web_fetch back on "
            f"(false set by {origin}); set it in {_USER_FILE} or with -c"
        )
        kept["tools"] = {key: value for key, value in tools.items() if key != "web_fetch"}
    return RestrictedLayer(_with_deny_added(kept, below=below), tuple(warnings))


# Tables a workspace file may not set, dropped (not refused) so a cloned repository still opens.
_IGNORED_TABLES: Mapping[str, str] = {
    "mcp_servers": "a workspace config cannot add MCP servers (they start programs or reach endpoints "
    f"you did not choose); define them in {_USER_FILE} or with -c",
    "projects": f"a workspace config cannot trust itself; set [projects] in {_USER_FILE}",
    # A repository pricing its model at $0 would switch off the user's --max-budget-usd.
    "pricing": f"a workspace config cannot set the prices budgets count; set [pricing] in {_USER_FILE}",
}


def drop_untrusted_tables(table: Mapping[str, Any], *, source: str) -> tuple[dict[str, Any], list[str]]:
    """`table` without the keys a workspace may not set, and one warning naming each key dropped."""
    kept = {key: value for key, value in table.items() if key not in _IGNORED_TABLES}
    warnings = [
        f"{source}:{format_key(_first_key(table[key], (key,)))}: ignored: {why}"
        for key, why in _IGNORED_TABLES.items()
        if key in table
    ]
    return kept, warnings


def check_provider_switch(
    settings: Settings,
    *,
    source: str,
    below_provider: str | None,
    origins: Mapping[KeyPath, str],
) -> None:
    """Refuse a workspace `agent.provider` that would pair another provider's key with a configured URL.

    A built-in name normally sends requests to that provider's own endpoint with its own key. But
    `agent.base_url` (from the user file, `-c` or `--base-url`) applies to whichever provider is
    chosen: it was set for the provider the user picked, so a workspace switching to another one would
    send that provider's key to the user's URL. Keeping `below_provider`, the provider the user file
    (the trusted layers below the workspace files) chose, is fine.
    """
    provider = settings.agent.provider
    base_url = settings.agent.base_url
    if base_url is None or provider == below_provider:
        return
    chosen = json.dumps(below_provider) if below_provider else "the provider chosen from your API keys"
    origin = origins.get(("agent", "base_url"), FLAGS_SOURCE)
    raise ConfigError(
        f"{source}:agent.provider: got {describe_value(provider)}, but {origin} sets agent.base_url "
        f"{json.dumps(base_url)} for {chosen}: a workspace config cannot switch the provider while a "
        "base URL is configured, as the new provider's API key would be sent to that URL",
        hint=f"set agent.provider in {_USER_FILE}, with -c or --provider, or remove it from this file",
    )


def _check_endpoints(table: Mapping[str, Any], *, source: str) -> None:
    """Refuse `agent.base_url` and any `[providers.*]` table: they decide where API keys are sent."""
    if "base_url" in table.get("agent", {}):
        raise ConfigError(
            f"{source}:agent.base_url: a workspace config cannot choose where requests (and API keys) "
            f"are sent; set it in {_USER_FILE}, with -c or --base-url",
            hint=_CREDENTIALS_HINT,
        )
    if "providers" in table:
        path = _first_key(table["providers"], ("providers",))
        name = f"[providers.{format_key(path[1:2])}]" if len(path) > 1 else "[providers.<name>]"
        raise ConfigError(
            f"{source}:{format_key(path)}: a workspace config cannot choose where requests (and API keys) "
            f"are sent; set {name} in {_USER_FILE} or with -c",
            hint=_CREDENTIALS_HINT,
        )


def _check_shell(table: Mapping[str, Any], *, source: str) -> None:
    """Refuse `pty.preferred_shell`: it decides which program runs every approved command."""
    if "preferred_shell" in table.get("pty", {}):
        raise ConfigError(
            f"{source}:pty.preferred_shell: a workspace config cannot choose the program that runs "
            f"commands; set it in {_USER_FILE} or with -c",
            hint="every command you approve would run through that program; remove the key from this file",
        )


def _check_skill_paths(table: Mapping[str, Any], *, source: str) -> None:
    """Refuse `skills.paths`: a repository must not point vtcode at skill folders outside itself."""
    if "paths" in table.get("skills", {}):
        raise ConfigError(
            f"{source}:skills.paths: a workspace config cannot add skill folders; set it in {_USER_FILE}",
            hint="project skills go in .vtcode/skills/, .agents/skills/ or .claude/skills/; remove the key",
        )


def _with_deny_added(table: Mapping[str, Any], *, below: Mapping[str, Any]) -> dict[str, Any]:
    """`table` with its `approvals.deny` rules appended to those below, so a repository cannot lift one."""
    approvals: Mapping[str, Any] = table.get("approvals", {})
    if "deny" not in approvals:
        return dict(table)
    lower: tuple[str, ...] = tuple(below.get("approvals", {}).get("deny", ()))
    added = (rule for rule in dict.fromkeys(approvals["deny"]) if rule not in lower)
    return {**table, "approvals": {**approvals, "deny": [*lower, *added]}}


def _looser_approval(
    value: str, *, source: str, below: Mapping[str, Any], origins: Mapping[KeyPath, str]
) -> str | None:
    """The warning for an approval mode looser than the one in effect below, or None when it is not."""
    lower: str = below.get("agent", {}).get("approval", AgentSettings().approval)
    if APPROVAL_MODES.index(value) <= APPROVAL_MODES.index(lower):
        return None
    origin = origins.get(("agent", "approval"), _DEFAULT_ORIGIN)
    return (
        f"{source}:agent.approval: ignored: {describe_value(value)} would loosen the approval mode "
        f"{json.dumps(lower)} set by {origin}, and a workspace config may only tighten it; to loosen "
        f"approval, set agent.approval in {_USER_FILE}, with -c or --approval"
    )


def _check_sandbox(
    table: Mapping[str, Any], *, source: str, below: Mapping[str, Any], origins: Mapping[KeyPath, str]
) -> None:
    """Refuse a `[sandbox]` that confines commands less than the layers below do."""
    lower: Mapping[str, Any] = below.get("sandbox", {})
    defaults = SandboxSettings()
    hint = (
        f"to loosen the sandbox, set it in {_USER_FILE}, with -c or --sandbox, and remove it from this file"
    )
    if "mode" in table:
        lower_mode = lower.get("mode", defaults.mode)
        if not is_tighter_or_equal(table["mode"], lower_mode):
            allowed = ", ".join(json.dumps(m) for m in SANDBOX_MODES[: SANDBOX_MODES.index(lower_mode) + 1])
            origin = origins.get(("sandbox", "mode"), _DEFAULT_ORIGIN)
            raise ConfigError(
                f"{source}:sandbox.mode: got {describe_value(table['mode'])}, expected one of {allowed}: "
                f"a workspace config cannot loosen the sandbox mode {json.dumps(lower_mode)} set by {origin}",
                hint=f"strictest first: {', '.join(SANDBOX_MODES)}; {hint}",
            )
    if table.get("network") is True and not lower.get("network", defaults.network):
        origin = origins.get(("sandbox", "network"), _DEFAULT_ORIGIN)
        raise ConfigError(
            f"{source}:sandbox.network: got true, but {origin} keeps commands off the network: a workspace "
            "config cannot turn the network on",
            hint=hint,
        )
    if table.get("writable_roots"):
        raise ConfigError(
            f"{source}:sandbox.writable_roots: a workspace config cannot let commands write outside the "
            "workspace",
            hint=hint,
        )
    if table.get("allow_unix_sockets"):
        raise ConfigError(
            f"{source}:sandbox.allow_unix_sockets: a workspace config cannot let commands reach the user's "
            "sockets (a tmux server or the session bus runs commands outside the sandbox)",
            hint=hint,
        )


def _check_instruction_file(entry: str, *, source: str, workspace: Path) -> None:
    """Refuse an `agent.instruction_files` entry that can name a file outside the workspace.

    Relative entries are read from the project root (the workspace, or the git repository holding it),
    so without `..` they stay in the repository; `~` and other absolute paths would read the user's own
    files (keys, credentials) into the prompt.
    """
    text = entry.strip()
    if not text:
        return
    problem = None
    if ".." in _SEPARATORS.split(text):
        problem = 'climbs out of the workspace with ".."'
    elif text == "~" or text.startswith("~/"):
        problem = "names a file in the home folder"
    elif text.startswith("/") and not _inside(text, workspace):
        problem = "is an absolute path outside the workspace"
    if problem is None:
        return
    raise ConfigError(
        f"{source}:agent.instruction_files: {json.dumps(entry, ensure_ascii=False)} {problem}, "
        "expected a path inside the workspace",
        hint=f"a workspace config may only name instruction files inside the workspace; list others in "
        f"{_USER_FILE} or with -c",
    )


def _inside(text: str, workspace: Path) -> bool:
    """Whether the absolute path `text` is the workspace or below it, as given or with links resolved."""
    path = Path(os.path.normpath(text))
    bases = {Path(os.path.normpath(os.path.abspath(workspace))), Path(os.path.realpath(workspace))}
    return any(path.is_relative_to(base) for base in bases)


def _first_key(value: object, path: KeyPath) -> KeyPath:
    """The dotted key of the first value in `value` (a table's first leaf), for naming it in errors."""
    while isinstance(value, Mapping) and value:
        key, value = next(iter(value.items()))
        path = (*path, key)
    return path
