"""The never-matching check: answered from the file set `list_files` sees, narrowed before matching."""

from __future__ import annotations

from pathlib import Path

import pytest

from vtcode.core.instructions.globs import compile_pattern
from vtcode.instructions import MatchProbe
from vtcode.tools.file_set import workspace_files

FILES = [
    ".gitignore",
    "docs/guide/intro.md",
    "src/app/main.py",
    "src/app.py",
    "srcx/other.rb",
    "tools/build.sh",
    "vendor/lib.js",
]


@pytest.fixture
def probe(tmp_path: Path) -> MatchProbe:
    for relative in FILES:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x\n")
    (tmp_path / ".gitignore").write_text("vendor/\n")
    return MatchProbe(tmp_path, workspace_files)


@pytest.mark.parametrize(
    ("pattern", "matches"),
    [
        ("src/**/*.py", True),
        ("src/app/*.py", True),
        ("src/*.rb", False),  # srcx/other.rb is not below src/
        ("*.rb", True),
        ("**/*.sh", True),
        ("docs", True),  # a folder holding files counts
        ("docs/guide", True),
        ("legacy/**", False),
        ("**/*.js", False),  # only in the ignored vendor/
        ("/main.py", False),  # anchored at the root
        ("src/{app,lib}/*.py", True),
    ],
)
def test_patterns_are_answered_from_the_visible_files(
    probe: MatchProbe, tmp_path: Path, pattern: str, matches: bool
) -> None:
    assert probe.any_match(tmp_path, (compile_pattern(pattern),)) is matches


def test_a_base_below_the_root_sees_its_own_files(probe: MatchProbe, tmp_path: Path) -> None:
    assert probe.any_match(tmp_path / "src", (compile_pattern("/app.py"),))
    assert not probe.any_match(tmp_path / "src", (compile_pattern("/main.py"),))
    assert probe.listings == 1


def test_a_base_outside_the_root_is_never_called_useless(probe: MatchProbe, tmp_path: Path) -> None:
    assert probe.any_match(tmp_path.parent, (compile_pattern("nothing/**"),))
