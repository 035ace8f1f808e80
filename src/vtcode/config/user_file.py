"""Edits of the user's own config file (`$VTCODE_HOME/vtcode.toml`) made by commands (`vtcode mcp add`).

The file is read, changed as a table, validated like any layer and written back atomically, so a bad
value never reaches the file and a crash leaves the old file. Comments are not kept (tomli-w cannot).
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import tomli_w

from vtcode.config.layers import CONFIG_FILE_NAME
from vtcode.config.validation import validate_layer
from vtcode.protocol.errors import ConfigError


def user_config_path(home: Path) -> Path:
    """`$VTCODE_HOME/vtcode.toml`."""
    return home / CONFIG_FILE_NAME


def set_mcp_server(home: Path, name: str, server: Mapping[str, Any]) -> Path:
    """Write `[mcp_servers.NAME]` (replacing one of that name); the file written."""

    def change(table: dict[str, Any]) -> None:
        table["mcp_servers"] = {**table.get("mcp_servers", {}), name: dict(server)}

    return _edit(home, change)


def trust_project_mcp(home: Path, workspace: Path, hashes: Mapping[str, str]) -> Path:
    """Write `[projects."<workspace>"] trust_mcp = true` and the `hashes` of the servers trusted now.

    Hashes recorded earlier for other servers stay; the file written.
    """

    def change(table: dict[str, Any]) -> None:
        projects = dict(table.get("projects", {}))
        project = dict(projects.get(str(workspace), {}))
        pinned = {**project.get("mcp_server_hashes", {}), **hashes}
        projects[str(workspace)] = {**project, "trust_mcp": True, "mcp_server_hashes": pinned}
        table["projects"] = projects

    return _edit(home, change)


def trust_hooks(home: Path, workspace: Path, digests: Iterable[str]) -> Path:
    """Record hook digests as trusted: `[projects."<workspace>".hooks] "<sha256>" = "trusted"`."""

    def change(table: dict[str, Any]) -> None:
        projects = dict(table.get("projects", {}))
        project = dict(projects.get(str(workspace), {}))
        project["hooks"] = {**project.get("hooks", {}), **dict.fromkeys(digests, "trusted")}
        projects[str(workspace)] = project
        table["projects"] = projects

    return _edit(home, change)


def remove_mcp_server(home: Path, name: str) -> bool:
    """Remove `[mcp_servers.NAME]`; whether it was there."""
    path = user_config_path(home)
    table = _read(path)
    servers = dict(table.get("mcp_servers", {}))
    if name not in servers:
        return False
    del servers[name]
    if servers:
        table["mcp_servers"] = servers
    else:
        table.pop("mcp_servers", None)
    _write(path, table)
    return True


def _edit(home: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """Read the user config, apply `change`, validate it like any layer, write it back atomically."""
    path = user_config_path(home)
    table = _read(path)
    change(table)
    validate_layer(table, source=str(path))
    _write(path, table)
    return path


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(
            f"{path}: cannot be read: {exc}", hint="fix the file, then run the command again"
        ) from exc


def _write(path: Path, table: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            tomli_w.dump(dict(table), handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
