#!/usr/bin/env python3
"""Check a release archive against the allowlist: python3 scripts/verify_release.py ARCHIVE [--sha256 FILE].

Independent of scripts/release.py on purpose (no shared code): it re-reads the produced archive, so a bug in
the builder cannot hide from it. It rejects any entry outside the allowlist, workspace guidance (AGENTS.md,
CLAUDE.md, .vtcode, rule files) at any depth, links and other non-regular entries, absolute paths, `..`
components, duplicate or missing entries, and a checksum that does not match. Exit 0 accepted, 1 rejected,
2 usage.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import tarfile
from collections import Counter
from pathlib import Path

FILES = frozenset(
    {"vtcode", "man/vtcode.1", "completions/vtcode.bash", "completions/_vtcode", "completions/vtcode.fish"}
)
DIRS = frozenset({"man", "completions"})
EXECUTABLE = "vtcode"

# Names an agent reads as workspace guidance (plus any *.md), matched case-insensitively against every path
# component: the message names the real problem even where the allowlist would also reject the entry.
GUIDANCE_NAMES = frozenset(
    {
        "agents.md",
        "agents.override.md",
        "claude.md",
        "claude.local.md",
        "gemini.md",
        "copilot-instructions.md",
        ".vtcode",
        ".agents",
        ".claude",
        ".cursor",
        ".cursorrules",
        ".windsurfrules",
        ".clinerules",
        ".github",
        "rules",
    }
)
_CHECKSUM_LINE = re.compile(r"^([0-9a-f]{64}) [ *](\S+)\n?$")


def _guidance_problem(name: str) -> str | None:
    for part in name.split("/"):
        lowered = part.lower()
        if lowered in GUIDANCE_NAMES or lowered.endswith(".md"):
            return f"workspace guidance in a release archive: {name!r}"
    return None


def _path_problem(name: str) -> str | None:
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return f"absolute path: {name!r}"
    if "\\" in name:
        return f"backslash in path: {name!r}"
    parts = name.rstrip("/").split("/")
    if ".." in parts:
        return f"'..' component: {name!r}"
    if any(part in ("", ".") for part in parts):
        return f"non-canonical path: {name!r}"
    return None


def _member_problems(member: tarfile.TarInfo) -> list[str]:
    name = member.name
    problems = [p for p in (_path_problem(name), _guidance_problem(name)) if p]
    if member.issym():
        problems.append(f"symbolic link: {name!r} -> {member.linkname!r}")
    elif member.islnk():
        problems.append(f"hard link: {name!r} -> {member.linkname!r}")
    elif member.isdir():
        if name.rstrip("/") not in DIRS:
            problems.append(f"directory outside the allowlist: {name!r}")
    elif not member.isreg():
        problems.append(f"not a regular file: {name!r}")
    elif name not in FILES:
        problems.append(f"file outside the allowlist: {name!r}")
    elif name == EXECUTABLE and not member.mode & 0o111:
        problems.append(f"{name!r} is not executable")
    return problems


def archive_problems(archive: Path) -> list[str]:
    """Every allowlist violation in the archive's member list (empty when it is acceptable)."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            members = tar.getmembers()
    except (OSError, tarfile.TarError, EOFError) as exc:
        return [f"not a readable .tar.gz: {exc}"]
    problems = [p for member in members for p in _member_problems(member)]
    counts = Counter(member.name.rstrip("/") for member in members)
    problems += [f"duplicate entry: {name!r}" for name, n in sorted(counts.items()) if n > 1]
    present = {member.name for member in members if member.isreg()}
    problems += [f"missing entry: {name!r}" for name in sorted(FILES - present)]
    return problems


def checksum_problems(archive: Path, sha_file: Path) -> list[str]:
    """Problems with the `.sha256` file: missing, malformed, naming another file, or a digest mismatch."""
    try:
        text = sha_file.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        return [f"cannot read the checksum file {sha_file}: {exc}"]
    match = _CHECKSUM_LINE.match(text)
    if match is None:
        return [f"{sha_file}: expected one line '<sha256>  {archive.name}'"]
    expected, named = match.groups()
    problems = []
    if named != archive.name:
        problems.append(f"{sha_file} names {named!r}, not {archive.name!r}")
    digest = hashlib.sha256()
    with archive.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != expected:
        problems.append(f"checksum mismatch: {sha_file} says {expected}, the archive is {digest.hexdigest()}")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Verify one archive; print each problem and return 1 if there is any."""
    parser = argparse.ArgumentParser(prog="verify_release.py", description=__doc__.splitlines()[0])
    parser.add_argument("archive", type=Path)
    parser.add_argument("--sha256", type=Path, help="checksum file (default: ARCHIVE.sha256)")
    args = parser.parse_args(argv)
    archive: Path = args.archive
    if not archive.is_file():
        print(f"verify_release: no such archive: {archive}", file=sys.stderr)
        return 2
    sha_file: Path = args.sha256 or archive.with_name(archive.name + ".sha256")
    problems = checksum_problems(archive, sha_file) + archive_problems(archive)
    for problem in problems:
        print(f"verify_release: REJECTED {archive.name}: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"verify_release: ok {archive.name}: exactly {', '.join(sorted(FILES))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
