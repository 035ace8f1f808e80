"""scripts/verify_release.py accepts exactly the release layout and rejects crafted archives."""

from __future__ import annotations

import hashlib
import tarfile
from pathlib import Path

import pytest

from tests.release.archives import (
    dir_entry,
    fifo_entry,
    file_entry,
    layout_entries,
    link_entry,
    verify,
    write_archive,
)

ARCHIVE = "vtcode-0.1.0-linux-x86_64.tar.gz"


def test_the_exact_layout_is_accepted(tmp_path: Path) -> None:
    verdict = verify(write_archive(tmp_path / ARCHIVE, layout_entries()))
    assert (verdict.code, verdict.stderr) == (0, "")
    assert verdict.stdout.startswith(f"verify_release: ok {ARCHIVE}")


def _replace(name: str, entry: tuple[tarfile.TarInfo, bytes]) -> list[tuple[tarfile.TarInfo, bytes]]:
    return [entry if info.name == name else (info, data) for info, data in layout_entries()]


HOSTILE = {
    "extra file": ([*layout_entries(), file_entry("README.txt")], "file outside the allowlist: 'README.txt'"),
    "AGENTS.md at the root": ([*layout_entries(), file_entry("AGENTS.md")], "workspace guidance"),
    "nested docs/AGENTS.md": (
        [*layout_entries(), dir_entry("docs"), file_entry("docs/AGENTS.md")],
        "workspace guidance in a release archive: 'docs/AGENTS.md'",
    ),
    "completions/CLAUDE.md": (
        [*layout_entries(), file_entry("completions/CLAUDE.md")],
        "workspace guidance in a release archive: 'completions/CLAUDE.md'",
    ),
    "a .vtcode rule under man/": (
        [*layout_entries(), dir_entry("man/.vtcode"), file_entry("man/.vtcode/rules/style.md")],
        "workspace guidance in a release archive: 'man/.vtcode'",
    ),
    "a .cursorrules file": (
        [*layout_entries(), file_entry("completions/.cursorrules")],
        "workspace guidance in a release archive: 'completions/.cursorrules'",
    ),
    "a rules folder": (
        [*layout_entries(), dir_entry("man/rules"), file_entry("man/rules/style")],
        "workspace guidance in a release archive: 'man/rules/style'",
    ),
    "a lower-case agents.md": (
        [*layout_entries(), file_entry("completions/agents.md")],
        "workspace guidance in a release archive: 'completions/agents.md'",
    ),
    "a symlink in place of a completion": (
        _replace("completions/vtcode.bash", link_entry("completions/vtcode.bash", "../vtcode")),
        "symbolic link: 'completions/vtcode.bash' -> '../vtcode'",
    ),
    "an extra symlink": (
        [*layout_entries(), link_entry("man/vtcode.8", "/etc/passwd")],
        "symbolic link: 'man/vtcode.8' -> '/etc/passwd'",
    ),
    "a hardlink in place of the man page": (
        _replace("man/vtcode.1", link_entry("man/vtcode.1", "vtcode", hard=True)),
        "hard link: 'man/vtcode.1' -> 'vtcode'",
    ),
    "../x": ([*layout_entries(), file_entry("../x")], "'..' component: '../x'"),
    "a .. inside the path": (
        [*layout_entries(), file_entry("man/../../x")],
        "'..' component: 'man/../../x'",
    ),
    "/etc/x": ([*layout_entries(), file_entry("/etc/x")], "absolute path: '/etc/x'"),
    "./vtcode spelled with a dot": (
        [*layout_entries(), file_entry("./vtcode", mode=0o755)],
        "non-canonical path: './vtcode'",
    ),
    "a duplicate vtcode": (
        [*layout_entries(), file_entry("vtcode", b"second\n", 0o755)],
        "duplicate entry: 'vtcode'",
    ),
    "a missing completion": (
        [e for e in layout_entries() if e[0].name != "completions/_vtcode"],
        "missing entry: 'completions/_vtcode'",
    ),
    "a non-executable vtcode": (_replace("vtcode", file_entry("vtcode", mode=0o644)), "is not executable"),
    "a fifo": ([*layout_entries(), fifo_entry("completions/pipe")], "not a regular file: 'completions/pipe'"),
    "an unlisted directory": ([*layout_entries(), dir_entry("share")], "directory outside the allowlist"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_crafted_archive_is_rejected_with_the_reason(tmp_path: Path, case: str) -> None:
    entries, reason = HOSTILE[case]
    verdict = verify(write_archive(tmp_path / ARCHIVE, entries))
    assert verdict.code == 1, verdict
    assert reason in verdict.stderr
    assert f"REJECTED {ARCHIVE}" in verdict.stderr
    assert "Traceback" not in verdict.stderr


def test_a_checksum_mismatch_is_rejected(tmp_path: Path) -> None:
    archive = write_archive(tmp_path / ARCHIVE, layout_entries())
    sha_file = tmp_path / f"{ARCHIVE}.sha256"
    sha_file.write_text(f"{'0' * 64}  {ARCHIVE}\n")
    verdict = verify(archive)
    assert verdict.code == 1
    assert f"checksum mismatch: {sha_file} says {'0' * 64}" in verdict.stderr


def test_an_archive_changed_after_its_checksum_is_rejected(tmp_path: Path) -> None:
    archive = write_archive(tmp_path / ARCHIVE, layout_entries())
    good_sum = (tmp_path / f"{ARCHIVE}.sha256").read_text()
    write_archive(archive, [*layout_entries(), file_entry("completions/extra")])
    (tmp_path / f"{ARCHIVE}.sha256").write_text(good_sum)
    verdict = verify(archive)
    assert verdict.code == 1
    assert "checksum mismatch" in verdict.stderr
    assert "file outside the allowlist: 'completions/extra'" in verdict.stderr


def test_a_missing_checksum_file_is_rejected(tmp_path: Path) -> None:
    archive = write_archive(tmp_path / ARCHIVE, layout_entries())
    (tmp_path / f"{ARCHIVE}.sha256").unlink()
    verdict = verify(archive)
    assert verdict.code == 1
    assert "cannot read the checksum file" in verdict.stderr


def test_a_checksum_naming_another_archive_is_rejected(tmp_path: Path) -> None:
    archive = write_archive(tmp_path / ARCHIVE, layout_entries())
    sha_file = tmp_path / f"{ARCHIVE}.sha256"
    sha_file.write_text(sha_file.read_text().replace(ARCHIVE, "vtcode-9.9.9-linux-x86_64.tar.gz"))
    verdict = verify(archive)
    assert verdict.code == 1
    assert "names 'vtcode-9.9.9-linux-x86_64.tar.gz'" in verdict.stderr


def test_a_file_that_is_not_a_tar_gz_is_rejected_without_a_traceback(tmp_path: Path) -> None:
    archive = tmp_path / ARCHIVE
    archive.write_bytes(b"not gzip at all")
    digest = hashlib.sha256(b"not gzip at all").hexdigest()
    (tmp_path / f"{ARCHIVE}.sha256").write_text(f"{digest}  {ARCHIVE}\n")
    verdict = verify(archive)
    assert verdict.code == 1
    assert "not a readable .tar.gz" in verdict.stderr
    assert "Traceback" not in verdict.stderr


def test_a_missing_archive_is_a_usage_error(tmp_path: Path) -> None:
    verdict = verify(tmp_path / ARCHIVE)
    assert verdict.code == 2
    assert "no such archive" in verdict.stderr
