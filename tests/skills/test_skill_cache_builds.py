"""The skill cache is not shared between builds of vtcode that carry the same version string: what an
older parser made of an unchanged `SKILL.md` is not served to a newer one."""

from __future__ import annotations

import time
from pathlib import Path

import msgspec

from tests.skills.helpers import discover_in, repo, write_skill
from vtcode.instructions.skill_cache import FORMAT, FRESH_NS


def test_a_cache_written_by_another_build_of_the_same_version_is_not_served(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "x", "What the file says.")
    time.sleep(FRESH_NS / 1e9 + 0.1)  # old enough to be cached
    assert discover_in(tmp_path).skills["x"].description == "What the file says."
    cache = next((tmp_path / "H/.vtcode/cache/skills").glob("*.msgpack"))
    written = msgspec.msgpack.decode(cache.read_bytes())
    # What a build with another parser (same version, same format number) left for the same stamp.
    entries = {key: [*entry[:5], "What an older parser made of it.", *entry[6:]] for key, entry in
               written["entries"].items()}  # fmt: skip
    cache.write_bytes(msgspec.msgpack.encode({"format": FORMAT, "entries": entries}))
    assert discover_in(tmp_path).skills["x"].description == "What the file says."
