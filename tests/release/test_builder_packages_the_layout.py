"""scripts/release.py packs an executable, its man page and completions into the exact, verified layout.

A stand-in executable (a shell script running this checkout's vtcode) replaces the PyInstaller build,
which CI runs as its own step after the suite (.ci/run).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

from tests.release.archives import BUILDER, verify
from vtcode import __version__

EPOCH = "1760000000"


def _stand_in(tmp_path: Path, body: str | None = None) -> Path:
    path = tmp_path / "bin" / "vtcode"
    path.parent.mkdir()
    path.write_text(body or f"#!/bin/sh\nexec '{sys.executable}' -m vtcode \"$@\"\n")
    path.chmod(0o755)
    return path


def _build(binary: Path, out: Path, work: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}
    argv = [
        sys.executable,
        str(BUILDER),
        "--binary",
        str(binary),
        "--out-dir",
        str(out),
        "--work-dir",
        str(work),
    ]
    return subprocess.run(argv, capture_output=True, text=True, env=env, check=False)


def _vtcode_prints(*args: str) -> bytes:
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}
    return subprocess.run(
        [sys.executable, "-m", "vtcode", *args], capture_output=True, env=env, check=True
    ).stdout


def test_the_archive_holds_exactly_the_layout_generated_from_the_cli(tmp_path: Path) -> None:
    binary = _stand_in(tmp_path)
    proc = _build(binary, tmp_path / "dist", tmp_path / "work")
    assert proc.returncode == 0, proc.stderr
    archive = Path(proc.stdout.strip())
    assert re.fullmatch(rf"vtcode-{re.escape(__version__)}-(linux|darwin)-[a-z0-9_]+\.tar\.gz", archive.name)
    with tarfile.open(archive) as tar:
        members = {m.name: (m.type, m.mode, m.uid, m.mtime) for m in tar.getmembers()}
        contents = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isreg()}  # type: ignore[union-attr]
    epoch = int(EPOCH)
    assert members == {
        "completions": (tarfile.DIRTYPE, 0o755, 0, epoch),
        "completions/_vtcode": (tarfile.REGTYPE, 0o644, 0, epoch),
        "completions/vtcode.bash": (tarfile.REGTYPE, 0o644, 0, epoch),
        "completions/vtcode.fish": (tarfile.REGTYPE, 0o644, 0, epoch),
        "man": (tarfile.DIRTYPE, 0o755, 0, epoch),
        "man/vtcode.1": (tarfile.REGTYPE, 0o644, 0, epoch),
        "vtcode": (tarfile.REGTYPE, 0o755, 0, epoch),
    }
    assert contents == {
        "vtcode": binary.read_bytes(),
        "man/vtcode.1": _vtcode_prints("man"),
        "completions/vtcode.bash": _vtcode_prints("completions", "bash"),
        "completions/_vtcode": _vtcode_prints("completions", "zsh"),
        "completions/vtcode.fish": _vtcode_prints("completions", "fish"),
    }
    sha_line = archive.with_name(archive.name + ".sha256").read_text()
    assert sha_line == f"{hashlib.sha256(archive.read_bytes()).hexdigest()}  {archive.name}\n"
    assert f"verify_release: ok {archive.name}" in proc.stderr
    assert verify(archive).code == 0


def test_two_builds_of_the_same_input_are_byte_identical(tmp_path: Path) -> None:
    binary = _stand_in(tmp_path)
    first = _build(binary, tmp_path / "one", tmp_path / "work-one")
    second = _build(binary, tmp_path / "two", tmp_path / "work-two")
    assert (first.returncode, second.returncode) == (0, 0), first.stderr + second.stderr
    assert Path(first.stdout.strip()).read_bytes() == Path(second.stdout.strip()).read_bytes()


def test_an_executable_of_another_version_is_refused(tmp_path: Path) -> None:
    binary = _stand_in(tmp_path, "#!/bin/sh\necho 'vtcode 9.9.9'\n")
    proc = _build(binary, tmp_path / "dist", tmp_path / "work")
    assert proc.returncode == 1
    assert f"the executable reports 'vtcode 9.9.9', pyproject.toml says {__version__}" in proc.stderr
    assert not (tmp_path / "dist").exists()
    assert "Traceback" not in proc.stderr


def test_a_path_that_is_not_an_executable_is_a_usage_error(tmp_path: Path) -> None:
    plain = tmp_path / "vtcode"
    plain.write_text("not a program\n")
    proc = _build(plain, tmp_path / "dist", tmp_path / "work")
    assert proc.returncode == 2
    assert "not an executable file" in proc.stderr
