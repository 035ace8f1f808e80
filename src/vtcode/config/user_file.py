"""Edits of the user's own config file (`$VTCODE_HOME/vtcode.toml`) made by commands (`vtcode mcp add`).

The file is read, changed as a table, validated like any layer and written back atomically, so a bad
value never reaches the file and a crash leaves the old file. A server is added or removed, and a
project's trust recorded, as text (`toml_sections`), so comments and layout stay; only a file that
edit cannot express is rewritten whole.
"""

from __future__ import annotations

import stat
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import tomli_w

from vtcode.config.layers import CONFIG_FILE_NAME
from vtcode.config.toml_sections import with_section, without_section
from vtcode.config.validation import validate_layer
from vtcode.protocol.errors import ConfigError
from vtcode.store.atomic import atomic_write


def user_config_path(home: Path) -> Path:
    """`$VTCODE_HOME/vtcode.toml`."""
    return home / CONFIG_FILE_NAME


def set_mcp_server(home: Path, name: str, server: Mapping[str, Any], *, replace: bool = False) -> Path:
    """Write `[mcp_servers.NAME]`; the file written. One of that name is replaced only with `replace`."""
    path, text, table = _read(home)
    servers = dict(table.get("mcp_servers", {}))
    if name in servers and not replace:
        raise ConfigError(
            f"an MCP server named {name!r} is already in {path}",
            hint=f"pass --force to replace it, or `vtcode mcp remove {name}` first",
        )
    servers[name] = dict(server)
    wanted = {**table, "mcp_servers": servers}
    validate_layer(wanted, source=str(path))
    edited = with_section(without_section(text, "mcp_servers", name), "mcp_servers", name, server)
    _write_text_or_table(path, edited, wanted)
    return path


def trust_project_mcp(home: Path, workspace: Path, hashes: Mapping[str, str]) -> Path:
    """Write `[projects."<workspace>"] trust_mcp = true` and the `hashes` of the servers trusted now.

    Hashes recorded earlier for other servers stay; the file written.
    """

    def change(project: dict[str, Any]) -> None:
        pinned = {**project.get("mcp_server_hashes", {}), **hashes}
        project.update(trust_mcp=True, mcp_server_hashes=pinned)

    return _edit_project(home, workspace, change)


def trust_hooks(home: Path, workspace: Path, digests: Iterable[str]) -> Path:
    """Record hook digests as trusted: `[projects."<workspace>".hooks] "<sha256>" = "trusted"`."""

    def change(project: dict[str, Any]) -> None:
        project["hooks"] = {**project.get("hooks", {}), **dict.fromkeys(digests, "trusted")}

    return _edit_project(home, workspace, change)


def remove_mcp_server(home: Path, name: str) -> bool:
    """Remove `[mcp_servers.NAME]`; whether it was there."""
    path, text, table = _read(home)
    servers = dict(table.get("mcp_servers", {}))
    if name not in servers:
        return False
    del servers[name]
    if servers:
        table["mcp_servers"] = servers
    else:
        table.pop("mcp_servers", None)
    _write_text_or_table(path, without_section(text, "mcp_servers", name), table)
    return True


def _write_text_or_table(path: Path, text: str, wanted: Mapping[str, Any]) -> None:
    """Write the edited `text` when it parses to `wanted`; otherwise `wanted` as a whole (comments lost)."""
    try:
        same = tomllib.loads(text) == wanted
    except tomllib.TOMLDecodeError:
        same = False
    if same:
        _atomic_write(path, text.encode("utf-8"))
    else:
        _write(path, wanted)


def _read(home: Path) -> tuple[Path, str, dict[str, Any]]:
    """The user file's path, text and table (empty when there is no file); `ConfigError` if unreadable."""
    path = user_config_path(home)
    try:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = ""
        return path, text, tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(
            f"{path}: cannot be read: {exc}", hint="fix the file, then run the command again"
        ) from exc


def _edit_project(home: Path, workspace: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """Apply `change` to `[projects."<workspace>"]`, validated like any layer; only that section is rewritten.

    The rest of the file keeps its comments and layout (as `mcp add` does).
    """
    path, text, table = _read(home)
    projects = dict(table.get("projects", {}))
    project = dict(projects.get(str(workspace), {}))
    change(project)
    projects[str(workspace)] = project
    wanted = {**table, "projects": projects}
    validate_layer(wanted, source=str(path))
    edited = with_section(
        without_section(text, "projects", str(workspace)), "projects", str(workspace), project
    )
    _write_text_or_table(path, edited, wanted)
    return path


def _write(path: Path, table: Mapping[str, Any]) -> None:
    _atomic_write(path, tomli_w.dumps(dict(table)).encode("utf-8"))


def _atomic_write(path: Path, data: bytes) -> None:
    # A dotfiles manager links the config from elsewhere: replace the link's target, not the link, and
    # keep the file's mode (the temporary file is created private).
    path.parent.mkdir(parents=True, exist_ok=True)
    target = path.resolve() if path.is_symlink() else path
    try:
        mode: int | None = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mode = None
    atomic_write(target, data, mode=mode)
