"""Making text with file-name bytes (surrogate escapes) encodable: exact bytes shown, nothing else touched."""

from __future__ import annotations

import os

from vtcode.core.printable import printable, printable_value


def test_escaped_bytes_are_written_as_bash_writes_them() -> None:
    name = os.fsdecode(b"caf\xe9-\xff.txt")
    assert printable(name) == "caf\\xe9-\\xff.txt"
    assert printable(name).encode("utf-8") == b"caf\\xe9-\\xff.txt"


def test_valid_text_is_returned_unchanged() -> None:
    text = "caf\u00e9 \u2603 plain"
    assert printable(text) is text


def test_a_lone_surrogate_that_is_not_an_escaped_byte_becomes_a_replacement_character() -> None:
    assert printable("a\ud800b") == "a\ufffdb"


def test_nested_values_are_cleaned_keys_included() -> None:
    bad = os.fsdecode(b"\xff")
    assert printable_value({bad: [bad, (bad, 1)], "n": None}) == {"\\xff": ["\\xff", ("\\xff", 1)], "n": None}
