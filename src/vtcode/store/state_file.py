"""Small JSON state files of a session directory (`envelope.json`, `plan.json`): read strictly, written whole.

Each is one msgspec Struct with a `schema_version`; a file written by a newer vtcode is refused with a hint
rather than misread, and a write replaces the file atomically.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, TypeVar

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.store.atomic import atomic_write
from vtcode.store.errors import store_error


class Versioned(Protocol):
    """A stored shape that says which version of its format it is."""

    @property
    def schema_version(self) -> int | None:
        """The format version the file was written in (None: the first)."""
        ...


StateT = TypeVar("StateT", bound=Versioned)


def read_state_file(
    path: Path,
    decoder: msgspec.json.Decoder[StateT],
    *,
    name: str,
    newest: int,
    damaged_hint: str,
    newer_hint: str,
) -> StateT | None:
    """The file's value, None when it does not exist; a damaged or newer file is a `StoreError`."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise store_error(error, "read", path) from error
    try:
        value = decoder.decode(data)
    except msgspec.DecodeError as error:
        raise StoreError(f"{path}: {error}", hint=damaged_hint) from error
    if (value.schema_version or 0) > newest:
        raise StoreError(
            f"{path}: {name} has schema_version {value.schema_version}, this vtcode reads up to {newest}",
            hint=newer_hint,
        )
    return value


def write_state_file(path: Path, value: msgspec.Struct) -> None:
    """Replace the file with `value` as indented JSON, atomically (raises `StoreError`)."""
    atomic_write(path, msgspec.json.format(msgspec.json.encode(value)) + b"\n")
