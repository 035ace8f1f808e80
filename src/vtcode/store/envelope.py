"""`envelope.json` in the session directory: read leniently, written atomically (SPEC section 7)."""

from __future__ import annotations

from pathlib import Path

from vtcode.core.compaction.envelope import ENVELOPE_SCHEMA_VERSION, Envelope
from vtcode.store.state_file import StateFile

ENVELOPE_FILE = "envelope.json"

_ENVELOPE = StateFile(
    ENVELOPE_FILE,
    Envelope,
    newest=ENVELOPE_SCHEMA_VERSION,
    damaged_hint="the envelope is damaged; fix or delete it",
    newer_hint="upgrade vtcode to resume this session",
)


def read_envelope(session_dir: Path) -> Envelope | None:
    """The session's envelope, None when there is none yet; a damaged file is a `StoreError`."""
    return _ENVELOPE.read(session_dir)


def write_envelope(session_dir: Path, envelope: Envelope) -> None:
    """Replace the envelope atomically (temp file, fsync, rename, fsync of the directory)."""
    _ENVELOPE.write(session_dir, envelope)
