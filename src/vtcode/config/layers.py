"""Configuration layers: which files exist, reading them as TOML, and merging tables.

A layer is a raw TOML-shaped table plus the name of where it came from (a file path, an environment
variable, a `-c` option, the command line), so that a validation error can name its origin.

Workspace files: both `<workspace>/.vtcode/vtcode.toml` and `<workspace>/vtcode.toml` are read when
they exist, `.vtcode/vtcode.toml` first, so a key in the visible top-level `vtcode.toml` wins. A file
reached twice (the workspace is the home directory, so `.vtcode/vtcode.toml` *is* the user file) is read
once, at its first and lowest place, as the user file. Workspace files come with the repository, not
from the user, so their layers are marked `workspace` and `workspace_trust` limits what they may set.

Merging is a deep merge of tables: a table merges key by key, anything else (a list included) replaces
the lower value whole, so `-c approvals.allow=[...]` says exactly what is allowed. The one exception is
a workspace file's `approvals.deny`, which `workspace_trust` adds to the deny rules below it, so that a
repository can deny more but never lift a denial.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from vtcode.protocol.errors import ConfigError

if TYPE_CHECKING:
    import tomllib

CONFIG_FILE_NAME = "vtcode.toml"
FLAGS_SOURCE = "command line"

# Python 3.11's TOMLDecodeError carries its position only in the message text.
_TOML_POSITION = re.compile(
    r"^(?P<reason>.*) \(at (?:line (?P<line>\d+), column (?P<col>\d+)|end of document)\)$", re.S
)


class Layer(msgspec.Struct, frozen=True):
    """One source of settings: its name for messages and its raw, not yet validated table."""

    source: str
    table: Mapping[str, Any]
    # Attached to errors about a value from this layer, e.g. how to quote a `-c` value.
    value_hint: str | None = None
    # A file of the workspace: it may tighten policy but never loosen it or route credentials.
    workspace: bool = False


class ConfigFile(msgspec.Struct, frozen=True):
    """A config file that exists, and whether it is one of the workspace's (untrusted) files."""

    path: Path
    workspace: bool


def config_files(*, home: Path, workspace: Path) -> list[ConfigFile]:
    """The config files that exist, lowest layer first: user, then workspace `.vtcode/`, then root."""
    candidates = [
        ConfigFile(home / CONFIG_FILE_NAME, workspace=False),
        ConfigFile(workspace / ".vtcode" / CONFIG_FILE_NAME, workspace=True),
        ConfigFile(workspace / CONFIG_FILE_NAME, workspace=True),
    ]
    found: list[ConfigFile] = []
    seen: set[Path] = set()
    for candidate in candidates:
        # A symlink that leads nowhere (moved target, loop) is kept, so reading it names the problem
        # instead of the settings silently not applying.
        if not candidate.path.exists() and not candidate.path.is_symlink():
            continue
        if candidate.workspace and candidate.path.is_dir():
            continue  # the sandbox's placeholder for a workspace file that does not exist
        real = Path(os.path.realpath(candidate.path))  # Path.resolve raises on a loop
        if real not in seen:
            seen.add(real)
            found.append(candidate)
    return found


def file_layer(file: ConfigFile) -> Layer:
    """A config file read as a layer named by its path."""
    return Layer(str(file.path), read_toml(file.path), workspace=file.workspace)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; unreadable or malformed files raise ConfigError with line and column."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ConfigError(
            f"{path}: cannot read ({error.strerror or error}), expected a readable TOML file"
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, col = _position(data[: error.start].decode("utf-8"), len(data[: error.start]))
        raise ConfigError(
            f"{path}: invalid TOML at line {line}, column {col}: byte 0x{data[error.start]:02x} is not UTF-8"
        ) from None
    return parse_toml(text, source=str(path))


def parse_toml(text: str, *, source: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error raises ConfigError `source: invalid TOML at line L, column C`."""
    # Imported on first use: a run without config files or `-c` options never parses TOML.
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        reason, line, col = _decode_error(error, text)
        raise ConfigError(f"{source}: invalid TOML at line {line}, column {col}: {reason}") from None


def _decode_error(error: tomllib.TOMLDecodeError, text: str) -> tuple[str, int, int]:
    """Reason, line and column of a TOML syntax error; "end of document" becomes its position."""
    message = str(error)
    match = _TOML_POSITION.match(message)
    reason = match.group("reason") if match else message
    reason = reason[:1].lower() + reason[1:]
    if match and match.group("line"):
        return reason, int(match.group("line")), int(match.group("col"))
    line, col = _position(text, len(text))
    return reason, line, col


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def nest(path: Sequence[str], value: object) -> dict[str, Any]:
    """`("a", "b"), 1` → `{"a": {"b": 1}}`: a dotted key as a TOML table."""
    table: dict[str, Any] = {path[-1]: value}
    for part in reversed(path[:-1]):
        table = {part: table}
    return table


def deep_merge(lower: Mapping[str, Any], higher: Mapping[str, Any]) -> dict[str, Any]:
    """`higher` over `lower`: tables merge key by key, every other value replaces the lower one."""
    merged = dict(lower)
    for key, value in higher.items():
        below = merged.get(key)
        if isinstance(below, Mapping) and isinstance(value, Mapping):
            merged[key] = deep_merge(below, value)
        else:
            merged[key] = value
    return merged


def leaf_keys(table: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The dotted key of every non-table value in `table`: what a layer sets, as `deep_merge` sees it."""
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from leaf_keys(value, (*prefix, key))
        else:
            yield (*prefix, key)


def flags_layer(flags: Mapping[str, object]) -> Layer:
    """Dedicated command-line flags (`--model` → `agent.model`) as one layer; None means not given."""
    table: dict[str, Any] = {}
    for key, value in flags.items():
        if value is not None:
            table = deep_merge(table, nest(key.split("."), value))
    return Layer(FLAGS_SOURCE, table)
