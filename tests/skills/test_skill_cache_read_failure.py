"""A `SKILL.md` that could not be read (an OS failure, not its content) is not kept in the skill cache:
once it can be read again, with its stamp unchanged, the next discovery loads the skill."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.exec.sandbox_helpers import needs_landlock
from tests.skills.helpers import discover_in, repo, write_skill
from vtcode.instructions.skill_cache import FRESH_NS

# Discovery in a child whose reads Landlock allows everywhere but below the repository: the skill's
# `stat` succeeds (its stamp is taken) while opening it fails with EACCES, as a transient failure would
# (too many open files, an I/O error, a security policy) without touching the file's stamp.
_CHILD = r"""
import ctypes, os, sys
from pathlib import Path
import vtcode.instructions.definitions as definitions
from vtcode.instructions.definition_folders import DefinitionRoots

base = Path(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
READ_FILE = 1 << 2

class Ruleset(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]

class Beneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

attr = Ruleset(READ_FILE)
ruleset = libc.syscall(444, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0)
assert ruleset >= 0, os.strerror(ctypes.get_errno())
allowed = {"/usr", "/lib", "/lib64", "/etc", "/proc", "/dev", sys.prefix, sys.base_prefix,
           str(Path(definitions.__file__).parents[3]), str(base / "H")}
for path in allowed:
    try:
        fd = os.open(path, os.O_PATH)
    except OSError:
        continue
    rule = Beneath(READ_FILE, fd)
    assert libc.syscall(445, ruleset, 1, ctypes.byref(rule), 0) == 0, os.strerror(ctypes.get_errno())
assert libc.prctl(38, 1, 0, 0, 0) == 0
assert libc.syscall(446, ruleset, 0) == 0, os.strerror(ctypes.get_errno())

found = definitions.discover(
    DefinitionRoots(workspace=base / "R", vtcode_home=base / "H/.vtcode", user_home=base / "H")
)
print(sorted(found.skills), [d.reason for d in found.diagnostics])
"""


@needs_landlock
def test_a_skill_that_could_not_be_read_loads_once_it_can_be_with_the_same_stamp(tmp_path: Path) -> None:
    root = repo(tmp_path)
    path = write_skill(root / ".agents/skills", "x", "Fine.")
    time.sleep(FRESH_NS / 1e9 + 0.1)  # old enough to be cached
    stamp = path.stat()
    denied = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tmp_path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert denied.returncode == 0, denied.stderr
    assert "[] ['cannot be read (Permission denied)']" in denied.stdout
    assert (path.stat().st_ctime_ns, path.stat().st_ino) == (stamp.st_ctime_ns, stamp.st_ino)
    found = discover_in(tmp_path)
    assert found.skills["x"].description == "Fine."
    assert found.diagnostics == []
