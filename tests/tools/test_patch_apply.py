"""Applying hunks in memory: location, fuzz, anchors, line endings, and a property over random files."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from vtcode.tools.patch_apply import HunkMismatchError, apply_hunks
from vtcode.tools.patch_parse import UpdateFile, parse_patch


def _apply(text: str, *body: str) -> str:
    patch = parse_patch("\n".join(["*** Begin Patch", "*** Update File: f", *body, "*** End Patch"]))
    update = patch.ops[0]
    assert isinstance(update, UpdateFile)
    return apply_hunks(text, update.hunks, "f")


def test_hunks_apply_in_order_and_search_forward() -> None:
    text = "x = 1\nprint(x)\nx = 1\nprint(x)\n"
    # Both hunks have the same context; the second is found after the first.
    assert _apply(text, "-x = 1\n+x = 2", "@@", "-x = 1\n+x = 3") == "x = 2\nprint(x)\nx = 3\nprint(x)\n"


def test_header_disambiguates_identical_blocks() -> None:
    text = "def a():\n    return 0\n\ndef b():\n    return 0\n"
    assert _apply(text, "@@ def b():", "-    return 0", "+    return 1") == (
        "def a():\n    return 0\n\ndef b():\n    return 1\n"
    )


def test_abbreviated_header_and_nested_headers() -> None:
    text = "class A:\n    def run(self):\n        pass\nclass B:\n    def run(self):\n        pass\n"
    assert _apply(text, "@@ class B", "@@ def run", "-        pass", "+        return") == (
        "class A:\n    def run(self):\n        pass\nclass B:\n    def run(self):\n        return\n"
    )


def test_pure_insertion_after_header_or_at_end() -> None:
    text = "def f():\n    pass\n"
    assert _apply(text, "@@ def f():", "+    # first") == "def f():\n    # first\n    pass\n"
    assert _apply(text, "@@", "+x = 1") == "def f():\n    pass\nx = 1\n"


def test_whitespace_fuzz_keeps_the_files_own_context_lines() -> None:
    text = "if x:   \n\tcall()\n  end\n"
    # The model's context lost the trailing spaces and turned the tab into spaces.
    result = _apply(text, " if x:", "-    call()", "+\tcall(1)", " end")
    assert result == "if x:   \n\tcall(1)\n  end\n"


def test_exact_match_wins_over_an_earlier_fuzzy_one() -> None:
    text = "a \nb\na\nb\n"
    assert _apply(text, " a", "-b", "+B") == "a \nb\na\nB\n"


def test_end_of_file_anchor() -> None:
    text = "x\ny\nx\ny\n"
    assert _apply(text, " x", "-y", "+z", "*** End of File") == "x\ny\nx\nz\n"
    with pytest.raises(HunkMismatchError, match="did not match at the end of the file"):
        _apply("x\ny\nend\n", " x", "-y", "+z", "*** End of File")


def test_crlf_final_newline_and_bom_are_preserved() -> None:
    assert _apply("a\r\nb\r\nc\r\n", " a", "-b", "+B", "+B2") == "a\r\nB\r\nB2\r\nc\r\n"
    assert _apply("a\nb", " a", "-b", "+B") == "a\nB"
    assert _apply("\ufeffa\nb\n", " a", "-b", "+B") == "\ufeffa\nB\n"
    assert _apply("\ufeffa\nb\n", "-\ufeffa", "+A") == "\ufeffA\nb\n"
    # Mixed endings: untouched lines keep theirs, added lines take the first one.
    assert _apply("a\r\nb\nc\n", " b", "+new", " c") == "a\r\nb\nnew\r\nc\n"


def test_trailing_blank_context_line_may_stand_for_the_final_newline() -> None:
    assert _apply("a\nb\n", " a", "-b", "+c", " ") == "a\nc\n"


def test_deleting_every_line() -> None:
    assert _apply("a\nb\n", "-a", "-b") == ""


def test_mismatch_names_the_hunk_and_its_first_lines() -> None:
    text = "one\ntwo\nthree\n"
    with pytest.raises(HunkMismatchError) as raised:
        _apply(text, " one", "-two", "+2", "@@", " 1", " 2", " 3", " 4", "-5", " 6", " 7", "+8")
    assert raised.value.message == (
        "hunk 2 of f did not match:\n"
        "   1\n   2\n   3\n   4\n  -5\n   6\n  ...\n"
        "No file was changed. Read the file again (read_file) and copy its context and removed "
        "lines exactly, in order, below any earlier hunk."
    )


def test_missing_header_is_named() -> None:
    with pytest.raises(HunkMismatchError) as raised:
        _apply("a\nb\n", "@@ def nowhere():", "-a", "+b")
    assert raised.value.message == (
        "hunk 1 of f: its context line '@@ def nowhere():' was not found; no file was changed. "
        "Read the file again and use a line that exists."
    )


_line_text = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r\n"), max_size=12
)


@given(
    lines=st.lists(_line_text, min_size=1, max_size=30, unique=True),
    data=st.data(),
    replacement=_line_text,
    final_newline=st.booleans(),
    crlf=st.booleans(),
)
def test_single_line_replacement_property(
    lines: list[str], data: st.DataObject, replacement: str, final_newline: bool, crlf: bool
) -> None:
    """A generated one-line replacement patch, with up to 3 lines of context, gives the expected file."""
    # Without a final newline, a last empty line does not exist: "a\n" is one line, not two.
    assume(final_newline or lines[-1] != "")
    # A leading U+FEFF is the byte-order mark, kept apart from the first line by design.
    assume(not lines[0].startswith("\ufeff"))
    eol = "\r\n" if crlf else "\n"
    index = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
    before = data.draw(st.integers(min_value=0, max_value=3))
    after = data.draw(st.integers(min_value=0, max_value=3))
    text = eol.join(lines) + (eol if final_newline else "")
    hunk = [f" {line}" for line in lines[max(0, index - before) : index]]
    hunk += [f"-{lines[index]}", f"+{replacement}"]
    hunk += [f" {line}" for line in lines[index + 1 : index + 1 + after]]
    expected = [*lines[:index], replacement, *lines[index + 1 :]]
    assert _apply(text, "@@", *hunk) == eol.join(expected) + (eol if final_newline else "")
