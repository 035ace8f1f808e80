"""`usage.json`: a session's model calls added up by source and model, rewritten atomically per turn."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.protocol.usage import USAGE_SCHEMA_VERSION, UsageRow
from vtcode.store.atomic import atomic_write
from vtcode.store.errors import store_error

USAGE_FILE = "usage.json"


class StoredUsage(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The file's shape: one row per (source, model), costs as computed when the calls were made."""

    schema_version: int = USAGE_SCHEMA_VERSION
    rows: tuple[UsageRow, ...] = ()


def read_usage(session_dir: Path) -> tuple[UsageRow, ...]:
    """The stored rows; none for a session that has no file yet (made before accounting, or no call).

    Raises `StoreError` for a file that is not ours to read.
    """
    path = session_dir / USAGE_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ()
    except OSError as err:
        raise store_error(err, "read", path) from err
    try:
        return msgspec.json.decode(data, type=StoredUsage).rows
    except msgspec.DecodeError as err:
        raise StoreError(
            f"{path}: not a usage file vtcode can read ({err})",
            hint="delete it to start the session's account afresh",
        ) from err


def write_usage(session_dir: Path, rows: Sequence[UsageRow]) -> None:
    """Replace the stored rows (raises `StoreError`)."""
    atomic_write(session_dir / USAGE_FILE, msgspec.json.encode(StoredUsage(rows=tuple(rows))))
