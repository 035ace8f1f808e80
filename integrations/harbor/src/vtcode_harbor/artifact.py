"""The vtcode executable to upload, taken from a release archive (scripts/release.py) or given as is.

A release archive is `vtcode-<version>-<os>-<arch>.tar.gz`: a PyInstaller one-file executable `vtcode`
at its top level, beside its man page and completions, with a `.sha256` file next to it. Only the
executable goes into the task environment; the archive's checksum is checked first when it is there.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tarfile
from pathlib import Path

_ARCHIVE_NAME = re.compile(r"^vtcode-(?P<version>[^-]+)-(?P<os>[a-z0-9]+)-(?P<arch>[A-Za-z0-9_]+)\.tar\.gz$")
# `uname -m` spellings of the archive's architecture tags (scripts/release.py platform_tag).
_UNAME_ARCH = {"x86_64": ("x86_64", "amd64"), "arm64": ("aarch64", "arm64")}


class ArtifactError(Exception):
    """The artifact is missing, damaged or not a vtcode release; the message says which and how to fix."""


def platform_of(artifact: Path) -> tuple[str, str] | None:
    """(os, arch) named by a release archive's file name; None for a bare executable or another name."""
    match = _ARCHIVE_NAME.match(artifact.name)
    return (match["os"], match["arch"]) if match else None


def runs_on(artifact: Path, uname: str) -> bool:
    """Whether `uname -sm` output (e.g. "Linux x86_64") matches the archive's platform (True if unnamed)."""
    named = platform_of(artifact)
    if named is None:
        return True
    parts = uname.split()
    if len(parts) != 2:
        return True
    system, machine = parts[0].lower(), parts[1]
    return system == named[0] and machine in _UNAME_ARCH.get(named[1], (named[1],))


def _check_digest(archive: Path) -> None:
    sha_file = archive.with_name(archive.name + ".sha256")
    if not sha_file.is_file():
        return
    expected = sha_file.read_text(encoding="ascii", errors="replace").split()[:1]
    actual = hashlib.sha256(archive.read_bytes()).hexdigest()
    if expected != [actual]:
        raise ArtifactError(
            f"{archive} does not match its checksum file {sha_file.name}: damaged or replaced"
        )


def executable_from(artifact: Path, scratch: Path) -> Path:
    """The vtcode executable of `artifact` (a release archive, extracted into `scratch`, or an executable)."""
    if not artifact.is_file():
        raise ArtifactError(
            f"artifact {artifact} does not exist: build a release archive with `python3 scripts/release.py`"
        )
    if not tarfile.is_tarfile(artifact):
        if not os.access(artifact, os.X_OK):
            raise ArtifactError(f"artifact {artifact} is neither a release archive nor an executable file")
        return artifact
    _check_digest(artifact)
    with tarfile.open(artifact, "r:*") as archive:
        try:
            member = archive.getmember("vtcode")
        except KeyError:
            raise ArtifactError(
                f"{artifact} has no top-level `vtcode` executable: not a release archive"
            ) from None
        source = archive.extractfile(member) if member.isfile() else None
        if source is None:
            raise ArtifactError(f"`vtcode` in {artifact} is not a regular file")
        scratch.mkdir(parents=True, exist_ok=True)
        target = scratch / "vtcode"
        with source, target.open("wb") as out:
            shutil.copyfileobj(source, out)
    target.chmod(0o755)
    return target
