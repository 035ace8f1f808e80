"""`meta.json`: what `vtcode sessions list` shows about a session, rewritten atomically at checkpoints."""

from __future__ import annotations

from pathlib import Path

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.store.atomic import atomic_write
from vtcode.store.errors import newer_format_error, newer_format_in, store_error

META_SCHEMA_VERSION = 1
META_FILE = "meta.json"
TITLE_MAX_CHARS = 80
_NEWER_HINT = "the session was written by a newer vtcode; upgrade vtcode to use it"


class SessionInfo(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A session's summary; `workspace` is the real path of the workspace it ran in."""

    schema_version: int = META_SCHEMA_VERSION
    id: str
    workspace: str
    created_at: float
    updated_at: float
    turns: int = 0
    title: str = ""
    model: str = ""
    provider: str = ""
    pending_intents: int = 0


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(SessionInfo)


def make_title(prompt: str) -> str:
    """The first non-blank line of a prompt, whitespace collapsed, at most 80 characters."""
    for line in prompt.splitlines():
        title = " ".join(line.split())
        if title:
            if len(title) > TITLE_MAX_CHARS:
                return title[: TITLE_MAX_CHARS - 1] + "…"
            return title
    return ""


def read_info(path: Path) -> SessionInfo:
    """Load a `meta.json`; raises `StoreError` when it is unreadable, invalid or too new."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise store_error(err, "read", path) from err
    try:
        info = _decoder.decode(data)
    except msgspec.DecodeError as err:
        # Not "damaged" (which `meta_recovery` would rebuild and overwrite) when a newer vtcode wrote it.
        newer = newer_format_in(data, str(path), "session metadata", META_SCHEMA_VERSION, hint=_NEWER_HINT)
        if newer is not None:
            raise newer from None
        raise StoreError(
            f"{path}: invalid session metadata: {err}",
            hint="fix or remove that file; the session's history.jsonl is not affected",
        ) from err
    if info.schema_version > META_SCHEMA_VERSION:
        raise newer_format_error(
            str(path), "session metadata", info.schema_version, META_SCHEMA_VERSION, hint=_NEWER_HINT
        )
    return info


def write_info(path: Path, info: SessionInfo) -> None:
    """Replace a `meta.json` atomically; raises `StoreError`."""
    atomic_write(path, _encoder.encode(info) + b"\n")
