"""What a session with skills imports before any skill is used (start-up time): not the `/name` argument
expansion, not the hook readers a skill's frontmatter hooks need."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.skills.helpers import repo, write_skill

_PROBE = """
import json, sys
from pathlib import Path
from vtcode.config.schema import Settings
from vtcode.runtime.skills import load_session_skills
from vtcode.runtime.workspace_scope import WorkspaceScope
root, home = Path(sys.argv[1]), Path(sys.argv[2])
scope = WorkspaceScope(settings=Settings(), workspace=root, home=home / ".vtcode", user_home=home)
skills = load_session_skills(scope, 100_000, notice=print)
assert skills.tool() is not None
watched = ("vtcode.core.definitions.arguments", "vtcode.config.hook_json", "vtcode.config.hook_sources")
print(json.dumps([m for m in watched if m in sys.modules]))
"""


def test_loading_the_skills_catalog_leaves_expansion_and_hook_readers_unimported(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "stamp", "Stamps.", "Stamp $ARGUMENTS.\n", hooks="{}")
    home = tmp_path / "H"
    home.mkdir()
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(root), str(home)],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout  # fmt: skip
    assert json.loads(out.strip().splitlines()[-1]) == []
