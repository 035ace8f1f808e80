"""A workspace in a folder whose name is not UTF-8 (a surrogate-escaped `str` in Python) still finds its
skills at start-up; the skill cache leaves out only what it cannot store."""

from __future__ import annotations

import os
import time
from pathlib import Path

import msgspec

from tests.skills.helpers import repo, write_skill
from vtcode.instructions.definition_folders import DefinitionRoots
from vtcode.instructions.definitions import discover
from vtcode.instructions.skill_cache import FRESH_NS


def test_a_workspace_whose_folder_name_is_not_utf8_finds_its_skills(tmp_path: Path) -> None:
    root = repo(tmp_path / os.fsdecode(b"caf\xe9"))
    write_skill(root / ".agents/skills", "here", "In the workspace.")
    home = tmp_path / "H"
    write_skill(home / ".agents/skills", "mine", "The user's own.")
    time.sleep(FRESH_NS / 1e9 + 0.1)  # old enough to be cached
    for _ in range(2):
        found = discover(DefinitionRoots(workspace=root, vtcode_home=home / ".vtcode", user_home=home))
        assert sorted(found.skills) == ["here", "mine"]
        assert found.diagnostics == []
    cache = next((home / ".vtcode/cache/skills").glob("*.msgpack"))
    keys = list(msgspec.msgpack.decode(cache.read_bytes())["entries"])
    assert [key.rsplit("/", 2)[-2] for key in keys] == ["mine"]
