"""`vtcode man`: every line of help text survives roff, under a "vtcode manual" header with the version."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from tests.conftest import VtcodeRunner

from vtcode import __version__
from vtcode.cli.docs_cmd import escape_text_lines


def test_header_names_the_manual_and_the_version(vtcode: VtcodeRunner) -> None:
    result = vtcode.run("man")
    assert result.code == 0
    header = result.stdout.split("\n", 1)[0]
    assert header.startswith(".TH VTCODE ")
    assert header.endswith(f'"vtcode {__version__}" "vtcode manual"')


def test_text_lines_starting_with_a_dot_or_quote_are_escaped() -> None:
    roff = ".SH FILES\n.vtcode/vtcode.toml is read\n'quoted' text\n.TP\n.B vtcode"
    assert escape_text_lines(roff) == (
        ".SH FILES\n\\&.vtcode/vtcode.toml is read\n\\&'quoted' text\n.TP\n.B vtcode"
    )


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed to render the page")
def test_rendered_page_keeps_the_workspace_config_path(vtcode: VtcodeRunner) -> None:
    roff = vtcode.run("man").stdout
    rendered = subprocess.run(
        ["groff", "-man", "-Tutf8", "-P", "-cbou", "-rLL=200n"],
        input=roff,
        capture_output=True,
        text=True,
        check=True,
    )
    assert rendered.stderr == ""
    text = " ".join(rendered.stdout.split())
    assert "the workspace's .vtcode/vtcode.toml and vtcode.toml (which may only tighten policy)" in text
    assert "vtcode manual" in text
