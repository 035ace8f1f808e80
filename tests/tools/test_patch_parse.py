"""Parsing the patch envelope into data, and the syntax errors a model sees."""

from __future__ import annotations

import pytest

from vtcode.tools.patch_parse import (
    AddFile,
    DeleteFile,
    Hunk,
    HunkLine,
    Patch,
    PatchSyntaxError,
    UpdateFile,
    parse_patch,
)


def test_all_operations() -> None:
    text = """
*** Begin Patch
*** Add File: docs/new.md
+# Title
+
+body
*** Update File: src/app.py
*** Move to: src/main.py
@@ class App:
@@     def run(self):
         setup()
-        go()
+        go(fast=True)
*** End of File
*** Delete File: old.txt
*** End Patch
"""
    assert parse_patch(text) == Patch(
        (
            AddFile("docs/new.md", "# Title\n\nbody\n"),
            UpdateFile(
                "src/app.py",
                (
                    Hunk(
                        headers=("class App:", "def run(self):"),
                        lines=(
                            HunkLine(" ", "        setup()"),
                            HunkLine("-", "        go()"),
                            HunkLine("+", "        go(fast=True)"),
                        ),
                        end_of_file=True,
                    ),
                ),
                move_to="src/main.py",
            ),
            DeleteFile("old.txt"),
        )
    )


def test_several_hunks_and_a_first_hunk_without_header() -> None:
    patch = parse_patch(
        "*** Begin Patch\n*** Update File: a.py\n a\n-b\n+B\n@@\n c\n-d\n@@ def f():\n+e\n*** End Patch"
    )
    update = patch.ops[0]
    assert isinstance(update, UpdateFile)
    assert update.hunks == (
        Hunk((), (HunkLine(" ", "a"), HunkLine("-", "b"), HunkLine("+", "B"))),
        Hunk((), (HunkLine(" ", "c"), HunkLine("-", "d"))),
        Hunk(("def f():",), (HunkLine("+", "e"),)),
    )
    assert update.hunks[0].old_lines == ("a", "b")


def test_lenient_forms_models_produce() -> None:
    text = (
        "\r\n*** Begin Patch\r\n*** Update File:  a.py \r\n"
        "@@ -10,4 +10,4 @@ def handler(event):\r\n"
        " x\r\n\r\n-y\r\n+z\r\n\r\n*** Add File: b.txt\r\n+1\r\n\r\n+3\r\n\r\n*** End Patch\r\n\r\n"
    )
    assert parse_patch(text) == Patch(
        (
            UpdateFile(
                "a.py",
                (
                    Hunk(
                        # A unified-diff range keeps only its trailing section text.
                        ("def handler(event):",),
                        # A bare empty line is an empty context line; trailing ones are dropped.
                        (HunkLine(" ", "x"), HunkLine(" ", ""), HunkLine("-", "y"), HunkLine("+", "z")),
                    ),
                ),
            ),
            AddFile("b.txt", "1\n\n3\n"),
        )
    )


def test_move_without_hunks_is_a_rename() -> None:
    patch = parse_patch("*** Begin Patch\n*** Update File:a\n*** Move to: b\n*** End Patch")
    assert patch == Patch((UpdateFile("a", (), move_to="b"),))


def test_empty_added_file() -> None:
    assert parse_patch("*** Begin Patch\n*** Add File: empty\n*** End Patch") == Patch(
        (AddFile("empty", ""),)
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "invalid patch: the first line must be '*** Begin Patch'"),
        ("*** Begin Patch\n*** Delete File: a", "invalid patch: the last line must be '*** End Patch'"),
        ("*** Begin Patch\n*** End Patch", "invalid patch: it contains no file operations"),
        (
            "*** Begin Patch\n--- a/x\n*** End Patch",
            "invalid patch: line 2: expected '*** Add File: <path>', '*** Update File: <path>' "
            "or '*** Delete File: <path>', got '--- a/x'",
        ),
        (
            "*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch",
            "invalid patch: line 3: every line of an added file must start with '+', got 'no plus'",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n x\n~y\n*** End Patch",
            "invalid patch: line 4: unexpected line '~y' in a hunk of a: hunk lines start with "
            "' ' (context), '-' (removed), '+' (added) or '@@' (a new hunk)",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n*** End Patch",
            "invalid patch: '*** Update File: a' has no hunks",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@ def f():\n*** End Patch",
            "invalid patch: line 3: the last hunk of a has an '@@' line but no body lines",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n*** End of File\n*** End Patch",
            "invalid patch: line 3: '*** End of File' must follow the lines of a hunk",
        ),
        (
            "*** Begin Patch\n*** Delete File:   \n*** End Patch",
            "invalid patch: line 2: '*** Delete File:' needs a path",
        ),
    ],
)
def test_syntax_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(PatchSyntaxError) as raised:
        parse_patch(text)
    assert raised.value.message == message
