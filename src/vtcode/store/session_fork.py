"""A new session holding the first records of another's history: a conversation rewind's branch.

The source session is left as it was, so the old branch stays resumable. The compaction artifacts the
kept records name come along (linked, else copied), so `recall_history` on the branch finds what those
compactions replaced; later artifacts hold turns the branch no longer has and stay behind.
"""

from __future__ import annotations

import shutil
from pathlib import Path, PurePosixPath

import msgspec

from vtcode.store.atomic import atomic_write
from vtcode.store.errors import store_error
from vtcode.store.history import HISTORY_FILE, CompactionRecord, decode_record
from vtcode.store.meta import META_FILE, write_info
from vtcode.store.session import SessionHandle, SessionStore


def fork_session(
    store: SessionStore, source: SessionHandle, *, upto_seq: int, turns: int, label: str = "rewound"
) -> SessionHandle:
    """A session with the history of `source` up to `upto_seq` and `turns` turns; raises `StoreError`.

    `label` marks the fork's title (`<title> (<label>)`).
    """
    info = source.info
    title = f"{info.title} ({label})" if info.title else label
    fork = store.create(Path(info.workspace), title, model=info.model, provider=info.provider)
    try:
        data = source.history_path.read_bytes()
    except FileNotFoundError:
        data = b""
    except OSError as err:
        raise store_error(err, "read", source.history_path) from err
    kept: list[bytes] = []
    artifacts: list[str] = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            record = decode_record(line)
        except msgspec.DecodeError:
            break  # a torn last line
        if record.seq > upto_seq:
            break
        kept.append(line)
        if isinstance(record, CompactionRecord) and record.artifact_path:
            artifacts.append(record.artifact_path)
    for artifact in artifacts:
        _carry_artifact(source.dir, fork.dir, artifact)
    atomic_write(fork.dir / HISTORY_FILE, b"".join(line + b"\n" for line in kept))
    write_info(fork.dir / META_FILE, msgspec.structs.replace(fork.info, turns=turns))
    return store.open(fork.id)


def _carry_artifact(source: Path, fork: Path, artifact: str) -> None:
    """Link (else copy) one compaction artifact into the fork; a missing one stays missing."""
    rel = PurePosixPath(artifact)
    if rel.is_absolute() or ".." in rel.parts:
        return  # not an artifact this store wrote
    src, dst = source.joinpath(*rel.parts), fork.joinpath(*rel.parts)
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            dst.hardlink_to(src)
        except FileNotFoundError:
            return
        except OSError:
            shutil.copy2(src, dst)
    except FileNotFoundError:
        return
    except OSError as err:
        raise store_error(err, "copy", src) from err
