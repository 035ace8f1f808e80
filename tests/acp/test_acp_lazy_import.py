"""The ACP SDK is imported by `vtcode acp` only: `--version`, `--help` and `exec` never load it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for


def _sdk_loaded(vtcode: VtcodeRunner, cwd: Path, args: list[str], stdin: str = "") -> bool:
    """Whether one vtcode run in a fresh interpreter imported the `acp` package."""
    with server_for("chat", [Reply(text="hi")]) as server:
        probe = (
            "import sys, runpy\n"
            f"sys.argv = {['vtcode', *args]!r}\n"
            "try:\n"
            "    runpy.run_module('vtcode', run_name='__main__')\n"
            "except SystemExit:\n"
            "    pass\n"
            "print(__import__('json').dumps('acp' in sys.modules), file=sys.stderr)\n"
        )
        proc = subprocess.run(
            [sys.executable, "-c", probe],
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
            cwd=cwd,
            env=vtcode.env(cli_env("chat", server)),
            timeout=60,
        )
    loaded: bool = json.loads(proc.stderr.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize(
    "args", [["--version"], ["--help"], ["acp", "--help"], ["exec", *cli_args("chat"), "hello"]]
)
def test_other_commands_do_not_import_the_sdk(vtcode: VtcodeRunner, tmp_path: Path, args: list[str]) -> None:
    assert not _sdk_loaded(vtcode, tmp_path, args)


def test_acp_imports_it(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    assert _sdk_loaded(vtcode, tmp_path, ["acp", *cli_args("chat")])
