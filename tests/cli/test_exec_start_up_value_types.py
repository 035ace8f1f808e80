"""The value types `vtcode exec` creates on its way to the first request are msgspec Structs.

Creating a dataclass compiles its generated methods (`__init__`, `__eq__`, `__repr__`, frozen setters):
~15 times what a Struct class costs. With ~120 of them, dataclass creation was a third of the CPU time
from launch to the first request byte. The few left are named here; a new one on this path fails.
"""

from __future__ import annotations

from pathlib import Path

from tests.cli.exec_probe import RUN_VTCODE, run_exec_probe

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

_PROBE = (
    """
import dataclasses, json, sys, runpy
made = []
create = dataclasses._process_class
def noted(cls, *args):
    made.append(f"{cls.__module__}.{cls.__qualname__}")
    return create(cls, *args)
dataclasses._process_class = noted
sys.argv = ["vtcode", "exec", "hello"]
"""
    + RUN_VTCODE
    + "print(json.dumps(made), file=sys.stderr)\n"
)


def test_an_exec_turn_creates_no_dataclasses_of_its_own_but_the_named_few(tmp_path: Path) -> None:
    stdout, made = run_exec_probe(_PROBE, cwd=tmp_path, home=tmp_path / "home")
    assert stdout.strip() == "hi there"
    ours = {name for name in made if name.startswith("vtcode.")}
    assert ours <= STILL_DATACLASSES, sorted(ours - STILL_DATACLASSES)
