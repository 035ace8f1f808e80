"""`vtcode exec` run by a probing interpreter against a loopback server that answers "hi there".

A probe runs vtcode's `__main__` with `runpy` after hooking what it observes (the modules loaded at the
first connection, the classes made); it ends with `exit N` and then one JSON value on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply

# The probe's last lines: vtcode's main, its exit status and then (the caller's) JSON value on stderr.
RUN_VTCODE = """
try:
    runpy.run_module("vtcode", run_name="__main__")
except SystemExit as exit:
    print("exit", exit.code, file=sys.stderr)
"""


def run_exec_probe(probe: str, *, cwd: Path, home: Path, args: Sequence[str] = ()) -> tuple[str, Any]:
    """Run `probe` with `args`; its stdout and the JSON value it wrote last, once vtcode exited 0 after
    exactly one model request."""
    with OpenAIChatServer([Reply(text="hi there")]) as server:
        env = dict(
            os.environ,
            HOME=str(home),
            VTCODE_HOME=str(home / ".vtcode"),
            OPENAI_API_KEY="sk-test",
            OPENAI_BASE_URL=server.base_url,
        )
        proc = subprocess.run(
            [sys.executable, "-c", probe, *args],
            capture_output=True, text=True, check=False, cwd=cwd, env=env, timeout=120,
        )  # fmt: skip
        assert len(server.requests) == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[-2] == "exit 0", proc.stderr
    return proc.stdout, json.loads(lines[-1])
