"""Glob semantics of rule paths (SPEC section 5 decision 4; reference section 9 case 28, flipped)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vtcode.core.instructions.globs import (
    PatternError,
    compile_excludes,
    compile_pattern,
    excluded_by,
    is_universal,
    specificity,
    split_patterns,
)


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "expected"),
    [
        ("*.rs", "src/a/b.rs", False, True),  # no `/`: the file name at any depth
        # [decide] the original lets `*` cross `/`; SPEC decision 4 does not
        ("src/*.rs", "src/a/b.rs", False, False),
        ("src/*.rs", "src/lib.rs", False, True),
        ("src/**/*.rs", "src/a/b.rs", False, True),
        ("lib/**", "src/a/b.rs", False, False),
        ("src/**/*.rs", "src/lib.rs", False, True),  # `**` spans zero folders
        # [decide] the original keeps braces literal; SPEC decision 4 expands them
        ("src/*.{rs,ts}", "src/lib.rs", False, True),
        ("src/**", "src", True, True),  # a folder matches what would match inside it
        ("src/*", "src", True, True),
        ("src/**", "src", False, False),
        ("src/?.rs", "src/a.rs", False, True),
        ("src/?.rs", "src/ab.rs", False, False),
        ("src/[ab].rs", "src/b.rs", False, True),
        ("src/[!ab].rs", "src/b.rs", False, False),
        ("**/*.py", "a/.hidden/x.py", False, True),
        ("*.py", ".venv/x.py", False, True),
        ("/a.py", "src/a.py", False, False),  # a leading `/` anchors at the rules' root
        ("/a.py", "a.py", False, True),
        ("./src/*.py", "src/a.py", False, True),
    ],
)
def test_glob_semantics(pattern: str, path: str, is_dir: bool, expected: bool) -> None:
    assert compile_pattern(pattern).matches(path, is_dir=is_dir) is expected


@pytest.mark.parametrize("pattern", ["src/**.rs", "**a", "a/***", ""])
def test_invalid_patterns_are_rejected(pattern: str) -> None:
    with pytest.raises(PatternError):
        compile_pattern(pattern)


def test_specificity_counts_literal_characters() -> None:
    assert specificity(["**/*.rs"]) == 4
    assert specificity(["src/**/*.rs"]) == 8
    assert specificity(["**/*.rs", "src/**/*.rs"]) == 8


def test_comma_lists_keep_braces() -> None:
    assert split_patterns("*.ts, src/*.{ts,tsx} ,,") == ["*.ts", "src/*.{ts,tsx}"]


def test_universal_patterns() -> None:
    assert [is_universal(p) for p in ("**", "**/*", "*", "/**", "src/**")] == [True, True, True, True, False]


def test_excludes_resolve_relative_home_absolute_and_bare_names() -> None:
    excludes, problems = compile_excludes(
        ["**/legacy/**", "~/private/*.md", "/abs/x.md", "NOTES.md", "  "], root="/repo", home="/home/u"
    )
    assert problems == ()
    assert excluded_by(excludes, "/repo/legacy/AGENTS.md") == "**/legacy/**"
    assert excluded_by(excludes, "/repo/.vtcode/rules/legacy/r.md") == "**/legacy/**"
    assert excluded_by(excludes, "/other/legacy/AGENTS.md") is None
    assert excluded_by(excludes, "/home/u/private/a.md") == "~/private/*.md"
    assert excluded_by(excludes, "/abs/x.md") == "/abs/x.md"
    assert excluded_by(excludes, "/repo/deep/NOTES.md") == "NOTES.md"


def test_excludes_with_tilde_need_a_home() -> None:
    excludes, problems = compile_excludes(["~/x.md"], root="/repo", home=None)
    assert excludes == ()
    assert problems == ("exclude '~/x.md' uses ~ but there is no home folder",)


# A reference implementation of decision 4, written independently of wcmatch: braces are expanded,
# then each pattern becomes a regular expression component by component.


def _expand(pattern: str) -> list[str]:
    match = re.search(r"\{([^{}]*)\}", pattern)
    if match is None:
        return [pattern]
    return [
        expanded
        for alternative in match.group(1).split(",")
        for expanded in _expand(pattern[: match.start()] + alternative + pattern[match.end() :])
    ]


def _component(text: str) -> str:
    out = ""
    index = 0
    while index < len(text):
        ch = text[index]
        if ch == "*":
            out += "[^/]*"
        elif ch == "?":
            out += "[^/]"
        elif ch == "[":
            end = text.index("]", index + 2)
            body = text[index + 1 : end]
            out += f"[^/{re.escape(body[1:])}]" if body.startswith("!") else f"[{re.escape(body)}]"
            index = end
        else:
            out += re.escape(ch)
        index += 1
    return out


def _regex(pattern: str) -> str:
    parts = pattern.split("/")
    out = ""
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            out += "[^/]+(?:/[^/]+)*" if last else "(?:[^/]+/)*"
        else:
            out += _component(part) + ("" if last else "/")
    return out


def reference_match(pattern: str, path: str) -> bool:
    """Decision 4 by the book."""
    for expanded in _expand(pattern):
        target = path if "/" in expanded else path.rsplit("/", 1)[-1]
        if re.fullmatch(_regex(expanded), target):
            return True
    return False


_atom = st.sampled_from(["a", "b", "*", "?", "[ab]", "[!a]", "{a,b*}", "{b,ab}"])
_component_strategy = st.one_of(
    st.just("**"),
    st.lists(_atom, min_size=1, max_size=3).map("".join).filter(lambda c: "**" not in c),
)
_patterns = st.lists(_component_strategy, min_size=1, max_size=3).map("/".join)
_paths = st.lists(st.text("abc", min_size=1, max_size=2), min_size=1, max_size=4).map("/".join)


@given(pattern=_patterns, path=_paths)
def test_glob_matching_agrees_with_the_reference(pattern: str, path: str) -> None:
    assert compile_pattern(pattern).matches(path) == reference_match(pattern, path)
