"""Unified diffs become the old/new text pairs editors show as ACP diff content."""

from __future__ import annotations

from vtcode.acp.diffs import hunks
from vtcode.core.diff import unified_diff


def test_each_hunk_becomes_its_old_and_new_text_with_context() -> None:
    old = "".join(f"line {n}\n" for n in range(1, 30))
    new = old.replace("line 2\n", "line two\n").replace("line 25\n", "line twenty-five\n")
    found = hunks(unified_diff("f.txt", old, new))
    assert len(found) == 2
    assert found[0].old_text is not None
    assert "line 2\n" in found[0].old_text
    assert "line two\n" in found[0].new_text
    assert "line 1\n" in found[0].new_text
    assert "line twenty-five\n" in found[1].new_text


def test_a_new_file_has_no_old_text_and_a_deleted_one_no_new_text() -> None:
    (created,) = hunks(unified_diff("f.txt", "", "hello\nworld\n"))
    assert created.old_text is None
    assert created.new_text == "hello\nworld\n"
    (deleted,) = hunks(unified_diff("f.txt", "bye\n", ""))
    assert deleted.old_text == "bye\n"
    assert deleted.new_text == ""


def test_a_missing_final_newline_marker_is_not_text() -> None:
    (hunk,) = hunks(unified_diff("f.txt", "a\nb", "a\nc"))
    assert "No newline" not in (hunk.old_text or "") + hunk.new_text
    assert hunk.new_text == "a\nc\n"
