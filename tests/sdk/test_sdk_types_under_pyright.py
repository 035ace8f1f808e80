"""Pyright in strict mode reads the SDK as mypy does: the examples check clean, and a turn's output is
the program's own type.

Pyright is a Node tool: `scripts/install-pyright` (run by `.ci/run`) installs the pinned version into
`.cache/pyright`. The test never installs it (no network in tests); it skips, saying why, only when
Node or that install is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.sdk.test_sdk_output_typing import TYPED_PROGRAM

ROOT = Path(__file__).resolve().parents[2]
INSTALLER = ROOT / "scripts" / "install-pyright"
PACKAGE = ROOT / ".cache" / "pyright" / "node_modules" / "pyright"
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def _pinned_version() -> str:
    found = re.search(r"^VERSION=(\S+)$", INSTALLER.read_text(), re.MULTILINE)
    assert found is not None, f"{INSTALLER} names no VERSION"
    return found.group(1)


def _pyright() -> list[str]:
    """The command that runs the installed, pinned pyright; skips where Node or the install is missing."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: pyright cannot run here")
    if not (PACKAGE / "index.js").exists():
        pytest.skip(f"pyright is not installed in {PACKAGE.parent.parent}: run scripts/install-pyright")
    installed = json.loads((PACKAGE / "package.json").read_text())["version"]
    assert installed == _pinned_version(), f"pyright {installed} is installed: run scripts/install-pyright"
    return [node, str(PACKAGE / "index.js")]


def _check(tmp_path: Path, *files: Path) -> dict[str, Any]:
    config = tmp_path / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.11"}))
    argv = [*_pyright(), "--outputjson", "--pythonpath", sys.executable, "-p", str(config)]
    done = subprocess.run(
        [*argv, *map(str, files)], capture_output=True, text=True, timeout=600, check=False, cwd=tmp_path
    )
    assert done.stdout.startswith("{"), done.stdout + done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["summary"]["filesAnalyzed"] == len(files), report["summary"]
    return report


def _diagnostics(report: dict[str, Any], file: Path) -> list[tuple[str, str]]:
    return [
        (d["severity"], d["message"].splitlines()[0])
        for d in report["generalDiagnostics"]
        if Path(d["file"]).name == file.name
    ]


def test_pyright_strict_sees_the_output_as_the_programs_type_and_passes_the_examples(tmp_path: Path) -> None:
    program = tmp_path / "review_types.py"
    program.write_text(TYPED_PROGRAM)
    assert EXAMPLES, "no example programs found"
    report = _check(tmp_path, program, *EXAMPLES)
    for example in EXAMPLES:
        assert _diagnostics(report, example) == [], example
    assert _diagnostics(report, program) == [
        ("information", 'Type of "(await turn.result()).output" is "Review"'),
        ("information", 'Type of "result.output" is "Review"'),
        ("error", 'Variable "wrong" is not accessed'),
        ("error", 'Type "Review" is not assignable to declared type "str"'),
        ("information", 'Type of "sync.run("review", output_type=Review).output" is "Review"'),
    ]
