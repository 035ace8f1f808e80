"""What VTCodeAgent uploads: the `vtcode` executable of a release archive, checked before anything is sent."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from vtcode_harbor.artifact import ArtifactError, executable_from, runs_on


def _archive(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o755
            tar.addfile(info, io.BytesIO(data))
    return path


def test_the_executable_of_a_release_archive_is_what_gets_uploaded(
    release_archive: Path, tmp_path: Path
) -> None:
    executable = executable_from(release_archive, tmp_path)
    with tarfile.open(release_archive) as tar:
        member = tar.extractfile("vtcode")
        assert member is not None
        assert executable.read_bytes() == member.read()
    assert executable.stat().st_mode & 0o111


def test_an_archive_that_does_not_match_its_checksum_is_refused(tmp_path: Path) -> None:
    archive = _archive(tmp_path / "vtcode-0.1.0-linux-x86_64.tar.gz", {"vtcode": b"#!/bin/sh\n"})
    (tmp_path / f"{archive.name}.sha256").write_text(f"{'0' * 64}  {archive.name}\n")
    with pytest.raises(ArtifactError, match="does not match its checksum"):
        executable_from(archive, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_an_archive_without_the_executable_is_refused_by_name(tmp_path: Path) -> None:
    archive = _archive(tmp_path / "other.tar.gz", {"man/vtcode.1": b".TH"})
    with pytest.raises(ArtifactError, match="no top-level `vtcode` executable"):
        executable_from(archive, tmp_path / "out")


def test_a_missing_artifact_says_how_to_build_one(tmp_path: Path) -> None:
    with pytest.raises(ArtifactError, match=r"scripts/release\.py"):
        executable_from(tmp_path / "nope.tar.gz", tmp_path / "out")


def test_an_archive_for_another_platform_is_recognised() -> None:
    archive = Path("vtcode-0.1.0-linux-x86_64.tar.gz")
    assert runs_on(archive, "Linux x86_64\n")
    assert not runs_on(archive, "Linux aarch64\n")
    assert not runs_on(archive, "Darwin x86_64\n")
    assert runs_on(Path("vtcode"), "Linux aarch64")
