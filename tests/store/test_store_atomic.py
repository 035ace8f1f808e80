"""atomic_write: old or new content, never a mix, never a leftover temp file; errors a user can act on."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from vtcode.protocol.errors import StoreError
from vtcode.store import atomic_write
from vtcode.store.errors import store_error
from vtcode.store.history import history_log

# Runs Python code in a child whose file size limit is 4 KiB, so writes past it fail with EFBIG
# (SIGXFSZ ignored) — a real file-system failure without a tiny tmpfs or root privileges.
LIMITED_PREAMBLE = """
import json, resource, signal, sys
from pathlib import Path
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
from vtcode.protocol.errors import StoreError
"""


def run_limited(code: str, *args: str) -> dict[str, str]:
    """Run `code` under the file size limit; it prints one JSON object."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", LIMITED_PREAMBLE + textwrap.dedent(code), *args],
        capture_output=True,
        check=True,
        env=env,
        timeout=60,
    )
    result: dict[str, str] = json.loads(done.stdout)
    return result


def test_replaces_content_and_leaves_only_the_target(tmp_path: Path) -> None:
    target = tmp_path / "meta.json"
    target.write_bytes(b"old")

    atomic_write(target, b"new")

    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["meta.json"]


def test_creates_a_missing_file(tmp_path: Path) -> None:
    atomic_write(tmp_path / "envelope.json", b"{}")

    assert (tmp_path / "envelope.json").read_bytes() == b"{}"


def test_file_size_limit_keeps_old_content_and_removes_the_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "meta.json"
    target.write_bytes(b"old content")

    result = run_limited(
        """
        from vtcode.store import atomic_write
        try:
            atomic_write(Path(sys.argv[1]), b"x" * 100_000)
        except StoreError as err:
            print(json.dumps({"message": err.message, "hint": err.hint}))
        else:
            print(json.dumps({}))
        """,
        str(target),
    )

    assert result == {
        "message": f"could not write {target}: file too large for the file size limit of this process",
        "hint": "raise the file size limit (`ulimit -f`) or start a new session",
    }
    assert target.read_bytes() == b"old content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["meta.json"]


def test_failed_rename_keeps_old_content_and_removes_the_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "meta.json"
    target.write_bytes(b"old content")

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(StoreError) as caught:
        atomic_write(target, b"new content")
    monkeypatch.undo()

    assert caught.value.user_text() == (
        f"could not write {target}: permission denied\n"
        f"hint: check the permissions of {tmp_path}, or set VTCODE_HOME to a directory you can "
        "write"
    )
    assert target.read_bytes() == b"old content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["meta.json"]


def test_missing_directory_is_a_store_error(tmp_path: Path) -> None:
    target = tmp_path / "gone" / "meta.json"

    with pytest.raises(StoreError) as caught:
        atomic_write(target, b"{}")

    assert caught.value.message == (
        f"could not create a temporary file for {target}: No such file or directory"
    )


@pytest.mark.parametrize(
    ("code", "message", "hint"),
    [
        (
            errno.ENOSPC,
            "could not write /h/s/meta.json: no space left on the device",
            "free some disk space on the file system holding /h/s, then retry",
        ),
        (
            errno.EDQUOT,
            "could not write /h/s/meta.json: disk quota exceeded",
            "free some space within your quota, or set VTCODE_HOME to a directory on another disk",
        ),
        (
            errno.EFBIG,
            "could not write /h/s/meta.json: file too large for the file size limit of this process",
            "raise the file size limit (`ulimit -f`) or start a new session",
        ),
        (
            errno.EACCES,
            "could not write /h/s/meta.json: permission denied",
            "check the permissions of /h/s, or set VTCODE_HOME to a directory you can write",
        ),
        (
            errno.EROFS,
            "could not write /h/s/meta.json: the file system is read-only",
            "set VTCODE_HOME to a directory on a writable file system",
        ),
        (
            errno.EIO,
            "could not write /h/s/meta.json: Input/output error",
            "check that /h/s exists and is writable",
        ),
    ],
)
def test_os_errors_become_store_errors_with_hints(code: int, message: str, hint: str) -> None:
    err = store_error(OSError(code, os.strerror(code)), "write", Path("/h/s/meta.json"))

    assert (err.message, err.hint) == (message, hint)


def test_failed_append_cuts_the_log_back_so_a_retry_cannot_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"

    result = run_limited(
        """
        from vtcode.protocol.messages import UserMessage
        from vtcode.store import MessageRecord
        from vtcode.store.history import history_log
        def rec(seq, size):
            return MessageRecord(seq=seq, ts=1.0, message=UserMessage(content="x" * size))
        log = history_log(Path(sys.argv[1]))
        log.append([rec(1, 100)])
        try:
            log.append([rec(2, 100), rec(3, 10_000)])
        except StoreError as err:
            failed = err.message
        log.append([rec(2, 100)])
        print(json.dumps({"failed": failed}))
        """,
        str(path),
    )

    assert result == {
        "failed": f"could not append to {path}: file too large for the file size limit of this process"
    }
    assert [r.seq for r in history_log(path).load().records] == [1, 2]
