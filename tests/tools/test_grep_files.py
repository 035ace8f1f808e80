"""grep_files: the Python engine always, ripgrep when installed, and identical answers from both."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.file_set import visible_files
from vtcode.tools.grep_engines import GrepMatch, python_search, ripgrep_search
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.workspace import resolve, workspace_root

RG = shutil.which("rg")
needs_rg = pytest.mark.skipif(RG is None, reason="ripgrep (rg) is not installed")

PATTERNS = [
    "needle",
    "^needle",
    "needle$",
    r"(?i)NEEDLE",
    r"\bneedle\b",
    r"caf\w",
    r"x.$",
    "ünïcode",
    r"\d{3}",
    "(",  # invalid: both report the same error
]


def _fixture_tree(root: Path) -> None:
    files: dict[str, bytes] = {
        ".gitignore": b"ignored/\n*.log\n",
        "a.py": b"needle = 1\nno match\n  needle  \nthe needle$ here\n",
        "b/c.txt": b"prefix needle\r\nx\r\nneedle\r\nax\r\n",
        "b/d e.md": b"NEEDLE upper\nneedles plural\n",
        "latin1.txt": "café needle\n".encode("latin-1") + b"caf\xc3\xa9 utf8\n",
        "no-newline.txt": b"last line needle",
        "unicode/ünïcode.txt": "ünïcode needle 123\n".encode(),
        "binary.dat": b"needle\x00\x01\x02needle\n",
        # A NUL anywhere, even after the first 8 KiB, makes the file binary for both engines.
        "late-nul.dat": b"needle\n" + b"y" * 9000 + b"\n\x00needle\n",
        "ignored/skip.py": b"needle\n",
        "debug.log": b"needle\n",
        ".hidden/h.txt": b"needle hidden\n",
        "long.min.js": b"needle" + b"x" * 2000 + b"\n",
    }
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


async def _engines(workspace: Path, pattern: str) -> tuple[list[GrepMatch], list[GrepMatch] | None]:
    root = workspace_root(workspace)
    files = await visible_files(root, resolve(workspace, "."))
    python = python_search(root, files, re.compile(pattern))
    assert RG is not None
    return python, await ripgrep_search(RG, root, files, pattern)


async def test_python_engine_on_the_fixture_tree(ctx: ToolContext, workspace: Path) -> None:
    _fixture_tree(workspace)
    outcome = await GrepFilesTool(use_ripgrep=False).run({"pattern": "needle"}, ctx)
    assert outcome == ToolOutcome(
        content="\n".join(
            [
                ".hidden/h.txt:1:needle hidden",
                "a.py:1:needle = 1",
                "a.py:3:  needle  ",
                "a.py:4:the needle$ here",
                "b/c.txt:1:prefix needle",
                "b/c.txt:3:needle",
                "b/d e.md:2:needles plural",
                "latin1.txt:1:caf\ufffd needle",
                # A line over 400 bytes is cut, so one minified file cannot fill the output.
                "long.min.js:1:needle" + "x" * 391 + "…",
                "no-newline.txt:1:last line needle",
                "unicode/ünïcode.txt:1:ünïcode needle 123",
            ]
        ),
        touched_paths=(".",),
        extra={"engine": "python", "matches": 11},
    )


async def test_python_engine_line_rules(workspace: Path) -> None:
    _fixture_tree(workspace)
    root = workspace_root(workspace)
    files = await visible_files(root, resolve(workspace, "."))
    assert "binary.dat" in files
    assert "ignored/skip.py" not in files
    assert "debug.log" not in files
    # `$` matches before CRLF and at a file's end without a newline.
    assert python_search(root, files, re.compile("needle$")) == [
        GrepMatch("b/c.txt", 1, "prefix needle"),
        GrepMatch("b/c.txt", 3, "needle"),
        GrepMatch("latin1.txt", 1, "caf\ufffd needle"),
        GrepMatch("no-newline.txt", 1, "last line needle"),
    ]
    # "ax\r\n": the CR is not a character of the line.
    assert python_search(root, files, re.compile("^ax.$")) == []


@needs_rg
@pytest.mark.parametrize("pattern", [p for p in PATTERNS if p != "("])
async def test_ripgrep_and_python_engines_agree(workspace: Path, pattern: str) -> None:
    _fixture_tree(workspace)
    python, ripgrep = await _engines(workspace, pattern)
    assert ripgrep == python


@needs_rg
@pytest.mark.parametrize("pattern", PATTERNS)
async def test_ripgrep_and_fallback_tool_outputs_are_identical(
    ctx: ToolContext, workspace: Path, git_init: Callable[[Path], None], pattern: str
) -> None:
    _fixture_tree(workspace)
    git_init(workspace)
    assert RG is not None
    fallback = await GrepFilesTool(use_ripgrep=False).run({"pattern": pattern}, ctx)
    ripgrep = await GrepFilesTool(ripgrep=RG).run({"pattern": pattern}, ctx)
    assert ripgrep.content == fallback.content
    assert ripgrep.is_error == fallback.is_error
    if not fallback.is_error:
        assert ripgrep.extra == {**fallback.extra, "engine": "ripgrep"}


@needs_rg
async def test_patterns_ripgrep_rejects_fall_back_to_python(ctx: ToolContext, workspace: Path) -> None:
    _fixture_tree(workspace)
    assert RG is not None
    # Look-ahead is Python-only syntax; the answer must not depend on which engine is installed.
    arguments = {"pattern": r"needle(?= =)"}
    ripgrep = await GrepFilesTool(ripgrep=RG).run(arguments, ctx)
    fallback = await GrepFilesTool(use_ripgrep=False).run(arguments, ctx)
    assert (
        ripgrep
        == fallback
        == ToolOutcome(
            content="a.py:1:needle = 1",
            touched_paths=(".",),
            extra={"engine": "python", "matches": 1},
        )
    )


@pytest.mark.parametrize("use_ripgrep", [False, True])
async def test_path_glob_and_max_results(ctx: ToolContext, workspace: Path, use_ripgrep: bool) -> None:
    if use_ripgrep and RG is None:
        pytest.skip("ripgrep (rg) is not installed")
    _fixture_tree(workspace)
    grep = GrepFilesTool(use_ripgrep=use_ripgrep)
    in_dir = await grep.run({"pattern": "needle", "path": "b"}, ctx)
    assert in_dir.content == "b/c.txt:1:prefix needle\nb/c.txt:3:needle\nb/d e.md:2:needles plural"
    by_glob = await grep.run({"pattern": "needle", "glob": "*.{md,py}"}, ctx)
    assert [line.split(":")[0] for line in by_glob.content.split("\n")] == [
        "a.py",
        "a.py",
        "a.py",
        "b/d e.md",
    ]
    capped = await grep.run({"pattern": "needle", "path": "a.py", "max_results": 2}, ctx)
    assert capped.content == (
        "a.py:1:needle = 1\na.py:3:  needle  \n"
        "[1 more matches not shown; narrow the search with path, glob or a more specific pattern]"
    )


async def test_binary_and_ignored_files_are_skipped(ctx: ToolContext, workspace: Path) -> None:
    _fixture_tree(workspace)
    outcome = await GrepFilesTool(use_ripgrep=False).run({"pattern": r"\x01|skip|debug"}, ctx)
    assert outcome == ToolOutcome(
        content="No matches for '\\\\x01|skip|debug' in the workspace.",
        touched_paths=(".",),
        extra={"engine": "python", "matches": 0},
    )


async def test_invalid_regex_is_a_tool_error(ctx: ToolContext) -> None:
    for grep in (GrepFilesTool(use_ripgrep=False), GrepFilesTool()):
        outcome = await grep.run({"pattern": "foo(bar"}, ctx)
        assert outcome == ToolOutcome(
            content=(
                "grep_files: invalid regular expression 'foo(bar': missing ), unterminated "
                "subpattern at position 3 (Python `re` syntax; escape literal characters such "
                "as ( [ . * + ? with a backslash)"
            ),
            is_error=True,
        )


async def test_empty_pattern_is_refused(ctx: ToolContext) -> None:
    outcome = await GrepFilesTool().run({"pattern": ""}, ctx)
    assert outcome == ToolOutcome(
        content="grep_files: invalid arguments: Expected `str` of length >= 1 - at `$.pattern`",
        is_error=True,
    )
