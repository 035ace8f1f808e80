"""Fuzzy path matching for the `@` picker."""

from __future__ import annotations

from vtcode.core.fuzzy import fuzzy_rank, fuzzy_score


def test_characters_must_appear_in_order() -> None:
    assert fuzzy_score("apy", "src/app.py") is not None
    assert fuzzy_score("ypa", "src/app.py") is None


def test_file_name_matches_and_short_paths_rank_first() -> None:
    paths = ["docs/approvals/notes.md", "src/vtcode/tui/approval.py", "approval.py", "README.md"]
    assert fuzzy_rank("approval", paths) == [
        "approval.py",
        "src/vtcode/tui/approval.py",
        "docs/approvals/notes.md",
    ]


def test_an_empty_query_lists_short_paths_first_up_to_the_limit() -> None:
    assert fuzzy_rank("", ["a/b/c.txt", "z.txt", "b.txt"], limit=2) == ["b.txt", "z.txt"]
