"""What start-up read from each `SKILL.md` is kept between sessions, keyed by the file's `stat`: the
next discovery gives the same skills and problems, and any edit (even one that restores the file's
modification time) is seen."""

from __future__ import annotations

import os
import time
from pathlib import Path

import msgspec

from tests.skills.helpers import discover_in, repo, write_skill
from vtcode.core.definitions.model import Definition
from vtcode.instructions.skill_cache import CACHED_FIELDS, FRESH_NS


def _settle() -> None:
    """Wait until the files written so far may be cached: one changed in the last `FRESH_NS` is read
    every time (its stamp could repeat within one timestamp tick); its change time cannot be set back."""
    time.sleep(FRESH_NS / 1e9 + 0.1)


def _cached_keys(tmp_path: Path) -> list[str]:
    files = list((tmp_path / "H/.vtcode/cache/skills").glob("*.msgpack"))
    assert len(files) == 1
    return sorted(msgspec.msgpack.decode(files[0].read_bytes())["entries"])


def test_the_next_discovery_gives_the_same_skills_and_problems_from_the_cache(tmp_path: Path) -> None:
    root = repo(tmp_path)
    folder = root / ".agents/skills"
    write_skill(folder, "good", "Still here.", paths='"src/**"', **{"argument-hint": "X"})
    bare = folder / "bare/SKILL.md"
    bare.parent.mkdir(parents=True)
    bare.write_text("---\nname: bare\n---\nNo description.\n")
    binary = folder / "binary/SKILL.md"
    binary.parent.mkdir(parents=True)
    binary.write_bytes(b"---\nname: binary\x00\x01\n---\n")
    mismatch = folder / "other-folder/SKILL.md"
    mismatch.parent.mkdir(parents=True)
    mismatch.write_text("---\nname: renamed\ndescription: Named differently.\n---\nBody.\n")
    _settle()
    first = discover_in(tmp_path)
    assert len(_cached_keys(tmp_path)) == 4
    second = discover_in(tmp_path)
    assert second.skills == first.skills
    assert second.diagnostics == first.diagnostics
    assert second.skills["good"].paths == ("src/**",)
    assert second.skills["good"].argument_hint == "X"
    assert {Path(d.path).parent.name for d in second.diagnostics} == {"bare", "binary", "other-folder"}


def test_an_edit_is_seen_even_with_the_same_size_and_modification_time(tmp_path: Path) -> None:
    root = repo(tmp_path)
    path = write_skill(root / ".agents/skills", "x", "Version A.")
    _settle()
    assert discover_in(tmp_path).skills["x"].description == "Version A."
    before = path.stat()
    path.write_text(path.read_text().replace("Version A.", "Version B."))  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the old modification time back
    assert path.stat().st_size == before.st_size
    assert discover_in(tmp_path).skills["x"].description == "Version B."


def test_a_file_written_just_now_is_not_cached_and_a_removed_one_is_dropped(tmp_path: Path) -> None:
    root = repo(tmp_path)
    old = write_skill(root / ".agents/skills", "old", "Old.")
    _settle()
    write_skill(root / ".agents/skills", "new", "New.")  # may change again within one clock tick
    assert set(discover_in(tmp_path).skills) == {"old", "new"}
    assert [key.rsplit("/", 2)[-2] for key in _cached_keys(tmp_path)] == ["old"]
    old.unlink()
    assert set(discover_in(tmp_path).skills) == {"new"}
    assert _cached_keys(tmp_path) == []


def test_a_damaged_cache_is_ignored_and_written_again(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "x", "Fine.")
    _settle()
    discover_in(tmp_path)
    cache = next((tmp_path / "H/.vtcode/cache/skills").glob("*.msgpack"))
    cache.write_bytes(cache.read_bytes()[:20])  # torn
    assert discover_in(tmp_path).skills["x"].description == "Fine."
    assert len(_cached_keys(tmp_path)) == 1


def test_every_definition_field_is_cached_or_comes_from_the_files_place() -> None:
    place = {"path", "folder", "kind", "scope", "source", "style"}
    read_on_use_or_never_cached = {"body", "hooks", "has_hooks"}
    assert CACHED_FIELDS | place | read_on_use_or_never_cached == set(Definition.__struct_fields__)


def test_a_cache_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    root = repo(tmp_path)
    write_skill(root / ".agents/skills", "x", "Fine.")
    (tmp_path / "H/.vtcode").mkdir(parents=True)
    (tmp_path / "H/.vtcode/cache").write_text("a file where the cache folder would be\n")
    _settle()
    for _ in range(2):
        found = discover_in(tmp_path)
        assert found.skills["x"].description == "Fine."
        assert found.diagnostics == []
    assert (tmp_path / "H/.vtcode/cache").read_text() == "a file where the cache folder would be\n"
