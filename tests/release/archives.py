"""Real .tar.gz files for the release tests: the exact layout, and hostile variations of it."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERIFIER = ROOT / "scripts" / "verify_release.py"
BUILDER = ROOT / "scripts" / "release.py"
LAYOUT_FILES = (
    "completions/_vtcode",
    "completions/vtcode.bash",
    "completions/vtcode.fish",
    "man/vtcode.1",
    "vtcode",
)


@dataclass(frozen=True)
class Verdict:
    """What scripts/verify_release.py said about an archive."""

    code: int
    stdout: str
    stderr: str


def file_entry(name: str, data: bytes = b"x\n", mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    """A regular file member."""
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), mode
    return info, data


def link_entry(name: str, target: str, *, hard: bool = False) -> tuple[tarfile.TarInfo, bytes]:
    """A symbolic or hard link member."""
    info = tarfile.TarInfo(name)
    info.type = tarfile.LNKTYPE if hard else tarfile.SYMTYPE
    info.linkname = target
    return info, b""


def fifo_entry(name: str) -> tuple[tarfile.TarInfo, bytes]:
    """A named pipe member."""
    info = tarfile.TarInfo(name)
    info.type = tarfile.FIFOTYPE
    return info, b""


def dir_entry(name: str) -> tuple[tarfile.TarInfo, bytes]:
    """A directory member."""
    info = tarfile.TarInfo(name)
    info.type, info.mode = tarfile.DIRTYPE, 0o755
    return info, b""


def layout_entries() -> list[tuple[tarfile.TarInfo, bytes]]:
    """Exactly the allowlisted layout: two directories and five files, `vtcode` executable."""
    entries = [dir_entry("completions"), dir_entry("man")]
    for name in LAYOUT_FILES:
        entries.append(
            file_entry(name, f"content of {name}\n".encode(), 0o755 if name == "vtcode" else 0o644)
        )
    return entries


def write_archive(path: Path, entries: Iterable[tuple[tarfile.TarInfo, bytes]]) -> Path:
    """Write the members as a .tar.gz (GNU format, so any name is representable) plus a correct .sha256."""
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        for info, data in entries:
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    path.with_name(path.name + ".sha256").write_text(f"{digest}  {path.name}\n")
    return path


def verify(archive: Path, *extra: str) -> Verdict:
    """Run the verifier in its own process."""
    proc = subprocess.run(
        [sys.executable, str(VERIFIER), str(archive), *extra], capture_output=True, text=True, check=False
    )
    return Verdict(proc.returncode, proc.stdout, proc.stderr)
