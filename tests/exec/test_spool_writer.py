"""The spool file: byte-exact UTF-8 across reads, the cap, failures, the folder, retention."""

from __future__ import annotations

import itertools
import os
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vtcode.exec.spool import SpoolWriter, remove_expired_spools, spool_dir

DAY = 24 * 3600


@contextmanager
def file_size_limit(size: int) -> Iterator[None]:
    """Lower RLIMIT_FSIZE of this process for a moment (writes past it fail with EFBIG)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=60)
@given(text=st.text(min_size=1, max_size=200), cuts=st.lists(st.integers(min_value=0, max_value=800)))
def test_characters_split_across_reads_arrive_intact(tmp_path: Path, text: str, cuts: list[int]) -> None:
    """Acceptance: multi-byte UTF-8 characters split across reads arrive intact in the spool."""
    data = text.encode()
    writer = SpoolWriter(tmp_path, "run-split", cap_bytes=1 << 20)
    writer.open()
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    for start, end in itertools.pairwise(points):
        writer.write(data[start:end])
    writer.finish()
    assert writer.path.read_bytes() == data
    assert writer.state.complete
    assert writer.state.written_bytes == len(data)


def test_invalid_bytes_become_replacement_characters_so_the_file_stays_text(tmp_path: Path) -> None:
    writer = SpoolWriter(tmp_path, "run-bad", cap_bytes=1 << 20)
    writer.open()
    writer.write(b"ok \xff\xfe end\n\xe2\x82")
    writer.finish()
    assert writer.path.read_text(encoding="utf-8") == "ok \ufffd\ufffd end\n\ufffd"


def test_spool_folder_is_git_ignored(tmp_path: Path) -> None:
    writer = SpoolWriter(tmp_path, "run-a", cap_bytes=10)
    writer.open()
    writer.finish()
    assert (spool_dir(tmp_path) / ".gitignore").read_text() == "*\n"
    assert writer.relpath == ".vtcode/context/tool_outputs/run-a.log"


def test_cap_stops_the_spool_and_the_file_says_so(tmp_path: Path) -> None:
    """Acceptance 33 [I]: a capped spool stops growing, counts what it left out, still completes."""
    writer = SpoolWriter(tmp_path, "run-cap", cap_bytes=100)
    writer.open()
    for _ in range(5):
        writer.write(b"y" * 50)
    writer.finish()
    content = writer.path.read_bytes()
    assert content.startswith(b"y" * 100 + b"\n[vtcode: spool capped at 100 bytes")
    assert (writer.state.written_bytes, writer.state.dropped_bytes) == (100, 150)
    assert writer.state.complete
    assert writer.state.capped


def test_folder_linked_outside_the_workspace_is_never_written(tmp_path: Path) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    (ws / ".vtcode").mkdir(parents=True)
    outside.mkdir()
    (ws / ".vtcode" / "context").symlink_to(outside)
    writer = SpoolWriter(ws, "run-x", cap_bytes=100)
    writer.open()
    assert not writer.state.available
    assert writer.state.failure is not None
    assert list(outside.iterdir()) == []


def test_write_failure_is_recorded_and_never_raised(tmp_path: Path) -> None:
    """Acceptance 24: a write failure after 10 000 bytes (a real EFBIG from RLIMIT_FSIZE)."""
    writer = SpoolWriter(tmp_path, "run-big", cap_bytes=1 << 30)
    writer.open()
    with file_size_limit(10_000):
        for _ in range(5):
            writer.write(b"z" * 4000)
    writer.finish()
    assert writer.state.failure is not None
    assert "EFBIG" in writer.state.failure
    assert not writer.state.available
    assert not writer.state.complete
    assert writer.state.written_bytes == 10_000


def test_retention_removes_old_finished_spools_only(tmp_path: Path) -> None:
    """Acceptance 33 [I]: age cleanup never removes a running session's spool (it holds a lock)."""
    now = time.time()
    folder = spool_dir(tmp_path)
    running = SpoolWriter(tmp_path, "run-live", cap_bytes=100)
    running.open()
    running.write(b"still running\n")
    finished_old = folder / "run-old.log"
    finished_old.write_text("old\n")
    recent = folder / "run-new.log"
    recent.write_text("new\n")
    other = folder / "notes.txt"
    other.write_text("not a spool\n")
    for path in (finished_old, running.path, other):
        os.utime(path, (now - 8 * DAY, now - 8 * DAY))
    removed = remove_expired_spools(tmp_path, now)
    assert removed == [finished_old]
    assert running.path.exists()
    assert recent.exists()
    assert other.exists()
    running.finish()
    assert remove_expired_spools(tmp_path, now) == [running.path]


def test_long_stream_through_the_disk_thread_is_byte_exact(tmp_path: Path) -> None:
    """Past the first MiB a disk thread writes; order, splits and totals stay exact."""
    text = "".join(f"{i:07d} ünïcödé €🙂\n" for i in range(150_000)).encode()
    writer = SpoolWriter(tmp_path, "run-long", cap_bytes=1 << 30)
    writer.open()
    for start in range(0, len(text), 65_537):
        writer.write(text[start : start + 65_537])
    writer.sync()
    # Everything but a character split at the last chunk's end is on disk once synced.
    assert len(text) - 3 <= writer.state.written_bytes <= len(text)
    writer.finish()
    assert writer.path.read_bytes() == text
    assert (writer.state.written_bytes, writer.state.complete) == (len(text), True)


def test_write_failure_on_the_disk_thread_is_recorded(tmp_path: Path) -> None:
    writer = SpoolWriter(tmp_path, "run-efbig", cap_bytes=1 << 30)
    writer.open()
    limit = 1_500_000
    with file_size_limit(limit):
        for _ in range(12):
            writer.write(b"w" * 262_144)
        writer.sync()
    writer.finish()
    state = writer.state
    assert state.failure is not None
    assert "EFBIG" in state.failure
    assert (state.written_bytes, state.available, state.complete) == (limit, False, False)


def test_cap_on_the_disk_thread(tmp_path: Path) -> None:
    writer = SpoolWriter(tmp_path, "run-capbig", cap_bytes=2 << 20)
    writer.open()
    for _ in range(12):
        writer.write(b"k" * 262_144)
    writer.finish()
    assert (writer.state.written_bytes, writer.state.dropped_bytes) == (2 << 20, 1 << 20)
    assert writer.path.read_bytes().startswith(b"k" * (2 << 20) + b"\n[vtcode: spool capped")
