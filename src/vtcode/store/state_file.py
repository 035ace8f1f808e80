"""Small JSON state files of a session directory (`envelope.json`, `plan.json`): read strictly, written whole.

Each is one msgspec Struct with a `schema_version`; a file written by a newer vtcode is refused with a hint
rather than misread, and a write replaces the file atomically.
"""

from __future__ import annotations

from pathlib import Path
from typing import Generic, Protocol, TypeVar

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.store.atomic import atomic_write
from vtcode.store.errors import newer_format_error, newer_format_in, store_error


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
        newer = newer_format_in(data, str(path), name, newest, hint=newer_hint)
        if newer is not None:
            raise newer from None
        raise StoreError(f"{path}: {error}", hint=damaged_hint) from error
    if (value.schema_version or 0) > newest:
        raise newer_format_error(str(path), name, value.schema_version or 0, newest, hint=newer_hint)
    return value


def write_state_file(path: Path, value: Versioned) -> None:
    """Replace the file with `value` as indented JSON, atomically (raises `StoreError`)."""
    atomic_write(path, msgspec.json.format(msgspec.json.encode(value)) + b"\n")


class StateFile(Generic[StateT]):
    """One state file of a session directory, declared once: its name, its type and what to tell a user."""

    __slots__ = ("_decoder", "damaged_hint", "filename", "newer_hint", "newest")

    def __init__(
        self, filename: str, shape: type[StateT], *, newest: int, damaged_hint: str, newer_hint: str
    ) -> None:
        self.filename = filename
        self.newest = newest
        self.damaged_hint = damaged_hint
        self.newer_hint = newer_hint
        self._decoder = msgspec.json.Decoder(shape)

    def read(self, directory: Path) -> StateT | None:
        """The value in `directory`, None when there is none; a damaged or newer file is a `StoreError`."""
        return read_state_file(
            directory / self.filename,
            self._decoder,
            # "envelope has schema_version 9": the file's name says which state it is.
            name=self.filename.removesuffix(".json"),
            newest=self.newest,
            damaged_hint=self.damaged_hint,
            newer_hint=self.newer_hint,
        )

    def write(self, directory: Path, value: StateT) -> None:
        """Replace the file in `directory` with `value` atomically (raises `StoreError`)."""
        write_state_file(directory / self.filename, value)
