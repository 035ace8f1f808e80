"""The value types `vtcode exec` creates on its way to the first request are msgspec Structs.

Creating a dataclass compiles its generated methods (`__init__`, `__eq__`, `__repr__`, frozen setters):
~15 times what a Struct class costs. With ~120 of them, dataclass creation was a third of the CPU time
from launch to the first request byte. The few left are named here; a new one on this path fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply

# Kept as dataclasses: other engineers' code and the public SessionOptions call `dataclasses.replace`
# or `dataclasses.fields` on them, or they come from a library (h11).
STILL_DATACLASSES = {
    "vtcode.runtime.wiring.SessionOptions",
    "vtcode.runtime.stored_history.StoredHistory",
    "vtcode.instructions.pipeline.InstructionsResult",
    "vtcode.instructions.definition_folders.DefinitionRoots",
    "vtcode.exec.group_record.RecordedGroup",
    "vtcode.core.hooks.model.ConfiguredHook",
}

_PROBE = """
import dataclasses, json, sys, runpy
made = []
create = dataclasses._process_class
def noted(cls, *args):
    made.append(f"{cls.__module__}.{cls.__qualname__}")
    return create(cls, *args)
dataclasses._process_class = noted
sys.argv = ["vtcode", "exec", "hello"]
try:
    runpy.run_module("vtcode", run_name="__main__")
except SystemExit as exit:
    print("exit", exit.code, file=sys.stderr)
print(json.dumps(made), file=sys.stderr)
"""


def test_an_exec_turn_creates_no_dataclasses_of_its_own_but_the_named_few(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with OpenAIChatServer([Reply(text="hi there")]) as server:
        env = dict(
            os.environ,
            HOME=str(home),
            VTCODE_HOME=str(home / ".vtcode"),
            OPENAI_API_KEY="sk-test",
            OPENAI_BASE_URL=server.base_url,
        )
        proc = subprocess.run(
            [sys.executable, "-c", _PROBE],
            capture_output=True, text=True, check=False, cwd=tmp_path, env=env, timeout=120,
        )  # fmt: skip
        assert len(server.requests) == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert proc.stdout.strip() == "hi there", proc.stderr
    assert lines[-2] == "exit 0", proc.stderr
    ours = {name for name in json.loads(lines[-1]) if name.startswith("vtcode.")}
    assert ours <= STILL_DATACLASSES, sorted(ours - STILL_DATACLASSES)
