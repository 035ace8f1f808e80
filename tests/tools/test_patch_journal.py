"""The undo journal of multi-file edits: rolled back after a crash, never while its edit still runs."""

from __future__ import annotations

from pathlib import Path

from vtcode.tools.patch_journal import PlannedWrite, journaled, recover


def _writes(root: Path) -> list[PlannedWrite]:
    return [
        PlannedWrite("a.txt", b"a0\n", b"a1\n", 0o644, ".a.txt.1.tmp"),
        PlannedWrite("new/b.txt", None, b"b1\n", None, ".b.txt.2.tmp"),
        PlannedWrite("gone.txt", b"g0\n", None, 0o600, ".gone.txt.3.tmp"),
    ]


def _crashed_state(root: Path) -> None:
    """What a crash after every write but before the journal's removal leaves, plus a temp file."""
    (root / "a.txt").write_bytes(b"a1\n")
    (root / "new").mkdir()
    (root / "new" / "b.txt").write_bytes(b"b1\n")
    (root / "gone.txt").unlink()
    (root / ".a.txt.1.tmp").write_bytes(b"a1\n")


def test_a_journal_held_by_a_running_edit_is_left_alone(tmp_path: Path) -> None:
    root, journals = tmp_path / "ws", tmp_path / "journals"
    root.mkdir()
    (root / "a.txt").write_bytes(b"a0\n")
    (root / "gone.txt").write_bytes(b"g0\n")
    with journaled(journals, root, _writes(root)):
        _crashed_state(root)
        assert recover(journals, root) == []
        assert (root / "a.txt").read_bytes() == b"a1\n"
        # Same journal seen as abandoned once its lock is gone: simulated by copying it unlocked.
        (journal,) = journals.iterdir()
        abandoned = journal.read_bytes()
    (journals / "crashed.journal").write_bytes(abandoned)
    (messages,) = [recover(journals, root)]
    assert messages == ["an edit of 3 files was interrupted by a crash; it was rolled back"]
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == ["a.txt", "gone.txt"]
    assert (root / "a.txt").read_bytes() == b"a0\n"
    assert (root / "gone.txt").read_bytes() == b"g0\n"
    assert list(journals.iterdir()) == []


def test_a_file_changed_since_the_crash_is_left_as_found_and_named(tmp_path: Path) -> None:
    root, journals = tmp_path / "ws", tmp_path / "journals"
    root.mkdir()
    (root / "a.txt").write_bytes(b"a0\n")
    (root / "gone.txt").write_bytes(b"g0\n")
    with journaled(journals, root, _writes(root)):
        (journal,) = journals.iterdir()
        abandoned = journal.read_bytes()
    _crashed_state(root)
    (root / "a.txt").write_bytes(b"edited by hand after the crash\n")
    (journals / "crashed.journal").write_bytes(abandoned)
    (message,) = recover(journals, root)
    assert message.endswith("(2 restored; left as found, changed since: a.txt)")
    assert (root / "a.txt").read_bytes() == b"edited by hand after the crash\n"
    assert not (root / "new").exists()
    assert (root / "gone.txt").read_bytes() == b"g0\n"


def test_an_unwritable_journal_folder_does_not_stop_the_edit(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "not-a-folder").write_text("a file where the journal folder would go\n")
    ran = False
    with journaled(tmp_path / "not-a-folder", root, _writes(root)):
        ran = True
    assert ran


def test_an_added_folders_journal_is_rolled_back_by_its_workspace_or_a_session_adding_it(
    tmp_path: Path,
) -> None:
    workspace, other, added, journals = (tmp_path / n for n in ("ws", "other", "added", "journals"))
    for folder in (workspace, other, added):
        folder.mkdir()
    (added / "a.txt").write_bytes(b"a0\n")
    (added / "gone.txt").write_bytes(b"g0\n")
    with journaled(journals, added, _writes(added), session_workspace=workspace):
        (journal,) = journals.iterdir()
        abandoned = journal.read_bytes()
    for root, folders in ((workspace, []), (other, [added])):
        _crashed_state(added)
        (journals / "crashed.journal").write_bytes(abandoned)
        assert recover(journals, other) == []  # neither its workspace nor adding the folder
        assert (added / "a.txt").read_bytes() == b"a1\n"
        (message,) = recover(journals, root, folders)
        assert message == (
            f"an edit of 3 files in the added folder {added} was interrupted by a crash; it was rolled back"
        )
        assert sorted(p.relative_to(added).as_posix() for p in added.rglob("*")) == ["a.txt", "gone.txt"]
        assert (added / "a.txt").read_bytes() == b"a0\n"
        assert list(journals.iterdir()) == []
