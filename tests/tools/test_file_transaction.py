"""The all-or-nothing writer behind apply_patch: a failure mid-way restores what was written."""

from __future__ import annotations

from pathlib import Path

import pytest

from vtcode.tools.file_transaction import FileEdit, TransactionError, commit


def test_commit_writes_adds_updates_and_deletes(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("old\n")
    (tmp_path / "drop.txt").write_text("bye\n")
    commit(
        tmp_path,
        [
            FileEdit(tmp_path / "keep.txt", "keep.txt", b"old\n", b"new\n", 0o644),
            FileEdit(tmp_path / "deep" / "er" / "add.txt", "deep/er/add.txt", None, b"hi\n"),
            FileEdit(tmp_path / "drop.txt", "drop.txt", b"bye\n", None, 0o644),
        ],
    )
    assert (tmp_path / "keep.txt").read_text() == "new\n"
    assert (tmp_path / "deep" / "er" / "add.txt").read_text() == "hi\n"
    assert not (tmp_path / "drop.txt").exists()


def test_failure_mid_way_rolls_back_earlier_edits(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a0\n")
    (tmp_path / "gone.txt").write_text("g0\n")
    (tmp_path / "blocker").write_text("a file where a directory is needed\n")
    edits = [
        FileEdit(tmp_path / "a.txt", "a.txt", b"a0\n", b"a1\n", 0o644),
        FileEdit(tmp_path / "new" / "b.txt", "new/b.txt", None, b"b1\n"),
        FileEdit(tmp_path / "gone.txt", "gone.txt", b"g0\n", None, 0o600),
        # The parent "blocker" is a regular file: this write fails for real, after three succeeded.
        FileEdit(tmp_path / "blocker" / "c.txt", "blocker/c.txt", None, b"c1\n"),
    ]
    with pytest.raises(TransactionError) as raised:
        commit(tmp_path, edits)
    assert raised.value.message == "writing blocker/c.txt failed (Not a directory); no file was changed"
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "a.txt",
        "blocker",
        "gone.txt",
    ]
    assert (tmp_path / "a.txt").read_text() == "a0\n"
    assert (tmp_path / "gone.txt").read_text() == "g0\n"
    assert (tmp_path / "gone.txt").stat().st_mode & 0o777 == 0o600
