"""Compaction artifacts: the full history a compaction replaced, one file per compaction in `archive/`.

`history.jsonl` stays append-only (a compaction is a `CompactionRecord`); the artifact keeps every message
with its metadata so `recall_history` can search what the model no longer sees, and so can a person with
`rg`. Line 1 is a header, then one message per line. Written atomically: a crash leaves the old set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import msgspec

from vtcode.protocol.errors import StoreError
from vtcode.protocol.messages import Message
from vtcode.store.atomic import atomic_write
from vtcode.store.errors import newer_format_error, newer_format_in, store_error

ARCHIVE_SCHEMA_VERSION = 1
_NEWER_HINT = "upgrade vtcode to read this session's archive"
_NAME = re.compile(r"compaction-(\d{4,})\.jsonl")


class ArchiveHeader(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What an artifact holds: which compaction, why, and which history records it replaced."""

    schema_version: int = ARCHIVE_SCHEMA_VERSION
    segment: int
    ts: float
    trigger: str
    through_seq: int
    message_count: int
    tokens_before: int
    tokens_after: int


_message_encoder = msgspec.json.Encoder()
_header_decoder = msgspec.json.Decoder(ArchiveHeader)
_message_decoder: msgspec.json.Decoder[Message] = msgspec.json.Decoder(Message)


def segment_name(segment: int) -> str:
    """The file name of segment `segment` (1-based)."""
    return f"compaction-{segment:04d}.jsonl"


def list_segments(archive_dir: Path) -> list[tuple[int, Path]]:
    """The artifacts in `archive_dir`, oldest first; a missing directory has none."""
    try:
        names = [entry.name for entry in archive_dir.iterdir()]
    except FileNotFoundError:
        return []
    except OSError as error:
        raise store_error(error, "list", archive_dir) from error
    found = [(int(match[1]), archive_dir / name) for name in names if (match := _NAME.fullmatch(name))]
    return sorted(found)


def write_segment(archive_dir: Path, header: ArchiveHeader, messages: Sequence[Message]) -> Path:
    """Write one artifact atomically and return its path; refuses to overwrite an existing segment."""
    path = archive_dir / segment_name(header.segment)
    try:
        archive_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise store_error(error, "create", archive_dir) from error
    if path.exists():
        raise StoreError(
            f"{path}: compaction artifact already exists",
            hint="two processes are writing this session; close the other one",
        )
    lines = [_message_encoder.encode(header), *(_message_encoder.encode(m) for m in messages)]
    atomic_write(path, b"\n".join(lines) + b"\n")
    return path


def next_segment(archive_dir: Path) -> int:
    """The number the next artifact gets."""
    existing = list_segments(archive_dir)
    return existing[-1][0] + 1 if existing else 1


def read_segment(path: Path) -> tuple[ArchiveHeader, list[Message]]:
    """An artifact's header and messages; a damaged file is a `StoreError` naming the line."""
    try:
        lines = path.read_bytes().splitlines()
    except OSError as error:
        raise store_error(error, "read", path) from error
    if not lines:
        raise StoreError(f"{path}: empty compaction artifact", hint="the file was truncated; delete it")
    try:
        header = _header_decoder.decode(lines[0])
        messages = [_message_decoder.decode(line) for line in lines[1:] if line]
    except msgspec.DecodeError as error:
        newer = newer_format_in(lines[0], str(path), "artifact", ARCHIVE_SCHEMA_VERSION, hint=_NEWER_HINT)
        if newer is not None:
            raise newer from None
        raise StoreError(f"{path}: {error}", hint="the artifact is damaged; delete it") from error
    if header.schema_version > ARCHIVE_SCHEMA_VERSION:
        raise newer_format_error(
            str(path), "artifact", header.schema_version, ARCHIVE_SCHEMA_VERSION, hint=_NEWER_HINT
        )
    return header, messages


class CompactionEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One compaction of a session as `vtcode sessions show` lists it."""

    ts: float
    messages_after: int
    artifact_path: str | None
    # From the artifact's header; None when the artifact is missing or unreadable.
    trigger: str | None = None
    tokens_before: int | None = None
    tokens_after: int | None = None
    messages_before: int | None = None


def read_header(path: Path) -> ArchiveHeader:
    """Only the header line of an artifact (a listing does not read whole segments)."""
    try:
        with path.open("rb") as file:
            first = file.readline()
    except OSError as error:
        raise store_error(error, "read", path) from error
    try:
        return _header_decoder.decode(first)
    except msgspec.DecodeError as error:
        raise StoreError(f"{path}: {error}", hint="the artifact is damaged; delete it") from error
