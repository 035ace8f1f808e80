"""What `vtcode acp` loads while it starts, and when: the price every SDK subprocess session pays.

The ACP library (~300 pydantic schema classes, most of the child's start-up) is imported with the
command's module, before `cli.main` ends start-up's collector settings, so it is built without
collections walking it and then frozen with the rest of start-up; the rewind machinery waits for the
first `/rewind`, as in `vtcode exec`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

REWIND_MACHINERY = ("vtcode.runtime.session_rewind", "vtcode.runtime.rewind", "vtcode.core.rewind_command")


def _open_a_session(vtcode: VtcodeRunner, cwd: Path) -> dict[str, Any]:
    """One `vtcode acp` run in a fresh interpreter: `initialize` and `session/new`, then end of input."""
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}},
        {"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {"cwd": str(cwd), "mcpServers": []}},
    ]
    probe = (
        "import gc, json, sys, runpy\n"
        f"sys.argv = {['vtcode', 'acp', *cli_args('chat')]!r}\n"
        "try:\n"
        "    runpy.run_module('vtcode', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "import acp.schema\n"
        "seen = {'walked': any(o is acp.schema.InitializeRequest for o in gc.get_objects()),\n"
        f"        'rewind': [m for m in {REWIND_MACHINERY!r} if m in sys.modules]}}\n"
        "print(json.dumps(seen), file=sys.stderr)\n"
    )
    with server_for("chat", [Reply(text="hi")]) as server:
        proc = subprocess.run(
            [sys.executable, "-c", probe],
            input="".join(json.dumps(r) + "\n" for r in requests),
            capture_output=True,
            text=True,
            check=False,
            cwd=cwd,
            env=vtcode.env(cli_env("chat", server)),
            timeout=120,
        )
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert [a.get("id") for a in answers if "result" in a] == [1, 2], proc.stdout + proc.stderr
    seen: dict[str, Any] = json.loads(proc.stderr.strip().splitlines()[-1])
    return seen


def test_the_protocol_classes_are_built_during_start_up_and_frozen_with_it(
    vtcode: VtcodeRunner, tmp_path: Path
) -> None:
    # Frozen objects are in no collector generation: `gc.get_objects()` does not list them.
    assert _open_a_session(vtcode, tmp_path)["walked"] is False


def test_opening_a_session_loads_no_rewind_machinery(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    assert _open_a_session(vtcode, tmp_path)["rewind"] == []
