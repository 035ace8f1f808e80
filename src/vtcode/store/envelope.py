"""`envelope.json` in the session directory: read leniently, written atomically (SPEC section 7)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from vtcode.core.compaction.envelope import ENVELOPE_SCHEMA_VERSION, Envelope
from vtcode.protocol.errors import StoreError
from vtcode.store.atomic import atomic_write
from vtcode.store.errors import store_error

ENVELOPE_FILE = "envelope.json"

_decoder = msgspec.json.Decoder(Envelope)


def read_envelope(session_dir: Path) -> Envelope | None:
    """The session's envelope, None when there is none yet; a damaged file is a `StoreError`."""
    path = session_dir / ENVELOPE_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise store_error(error, "read", path) from error
    try:
        envelope = _decoder.decode(data)
    except msgspec.DecodeError as error:
        raise StoreError(f"{path}: {error}", hint="the envelope is damaged; fix or delete it") from error
    if (envelope.schema_version or 0) > ENVELOPE_SCHEMA_VERSION:
        raise StoreError(
            f"{path}: envelope has schema_version {envelope.schema_version}, this vtcode reads up to "
            f"{ENVELOPE_SCHEMA_VERSION}",
            hint="upgrade vtcode to resume this session",
        )
    return envelope


def write_envelope(session_dir: Path, envelope: Envelope) -> None:
    """Replace the envelope atomically (temp file, fsync, rename, fsync of the directory)."""
    atomic_write(session_dir / ENVELOPE_FILE, msgspec.json.format(msgspec.json.encode(envelope)) + b"\n")
