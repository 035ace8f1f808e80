"""Modules aim at 400 lines at most and are split by responsibility before they pass 450: past that a
module holds more than one concept, and every next change would only make it longer."""

from __future__ import annotations

from pathlib import Path

import vtcode

SPLIT_LINE = 450


def test_no_source_module_is_longer_than_the_split_line() -> None:
    package = Path(vtcode.__file__).parent
    too_long = {
        str(path.relative_to(package)): lines
        for path in sorted(package.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > SPLIT_LINE
    }
    assert too_long == {}, f"split these modules by responsibility: {too_long}"
