#!/usr/bin/env python3
"""Build dist/vtcode-<version>-<os>-<arch>.tar.gz and its .sha256: python3 scripts/release.py.

Steps: a fresh venv under build/release with the hash-locked runtime and build-tool locks
(requirements/runtime.lock, requirements/release.lock: PyInstaller is installed here, never assumed); the
vtcode wheel built and installed into it; PyInstaller one-file -> one executable `vtcode`. The man page
and the completions are printed by that executable itself (`vtcode man`, `vtcode completions SHELL`), so
they come from the same argparse tree as its `--help`. The stage is checked against the archive layout,
packed deterministically (sorted entries, fixed owner, modes and mtime = SOURCE_DATE_EPOCH or the last
commit's time), and the independent verifier (scripts/verify_release.py) must accept the result.

`--binary PATH` packages an existing executable instead of building one (tests, other freezers).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Each generated file and the vtcode arguments that print it.
DOCS = {
    "man/vtcode.1": ("man",),
    "completions/vtcode.bash": ("completions", "bash"),
    "completions/_vtcode": ("completions", "zsh"),
    "completions/vtcode.fish": ("completions", "fish"),
}
LAYOUT = frozenset({"vtcode", *DOCS})
# Not frozen into the binary: PyInstaller itself needs setuptools in the build venv, vtcode never does.
EXCLUDED_MODULES = ("setuptools", "pkg_resources", "tkinter", "pip", "_distutils_hack")
ENTRY = "import sys\n\nfrom vtcode.cli.main import main\n\nsys.exit(main())\n"


class ReleaseError(Exception):
    """A build step failed; the message says which and why."""


def project_version(root: Path) -> str:
    """The version in pyproject.toml."""
    with (root / "pyproject.toml").open("rb") as stream:
        return str(tomllib.load(stream)["project"]["version"])


def platform_tag() -> str:
    """`<os>-<arch>` of this machine, e.g. linux-x86_64 or darwin-arm64."""
    machine = platform.machine().lower()
    arch = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    return f"{platform.system().lower()}-{arch}"


def source_date_epoch(root: Path) -> int:
    """SOURCE_DATE_EPOCH if set, else the last commit's time, else 0: the archive's fixed mtime."""
    if value := os.environ.get("SOURCE_DATE_EPOCH"):
        return int(value)
    proc = subprocess.run(
        ["git", "-C", str(root), "log", "-1", "--format=%ct"], capture_output=True, text=True, check=False
    )
    return int(proc.stdout.strip()) if proc.returncode == 0 and proc.stdout.strip() else 0


def _run(
    argv: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False, env=env, cwd=cwd)
    if proc.returncode != 0:
        raise ReleaseError(f"{' '.join(argv[:4])} ... failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return proc


def build_binary(root: Path, work: Path) -> Path:
    """A one-file PyInstaller executable of vtcode, built in a fresh venv under `work`."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = str(venv / "bin" / "python")
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    print("release: installing the locked runtime and build tools into a clean venv", file=sys.stderr)
    locks = ["-r", str(root / "requirements/runtime.lock"), "-r", str(root / "requirements/release.lock")]
    _run([*pip, "--require-hashes", *locks])
    _run([*pip, "--no-deps", "--no-build-isolation", str(root)])
    entry = work / "vtcode_main.py"
    entry.write_text(ENTRY, encoding="utf-8")
    print("release: freezing with PyInstaller (one file)", file=sys.stderr)
    excludes = [arg for module in EXCLUDED_MODULES for arg in ("--exclude-module", module)]
    _run(
        [
            python,
            "-m",
            "PyInstaller",
            "--onefile",
            # Symbols off the bundled libraries: halves the file and the per-run extraction (see CHANGELOG).
            "--strip",
            "--name",
            "vtcode",
            "--noconfirm",
            "--clean",
            "--log-level",
            "WARN",
            "--distpath",
            str(work / "dist"),
            "--workpath",
            str(work / "pyinstaller"),
            "--specpath",
            str(work),
            # Package data (prompt profiles, the model catalog) is read with importlib.resources.
            "--collect-data",
            "vtcode",
            # `vtcode acp` imports the ACP front end (and its SDK) inside a function: named explicitly.
            "--hidden-import",
            "vtcode.acp.server",
            # `cli.main.COMMANDS` imports the chosen command's module by name, which the analysis
            # cannot follow: every module of the command line is bundled.
            "--collect-submodules",
            "vtcode.cli",
            *excludes,
            str(entry),
        ],
        cwd=work,
    )
    return work / "dist" / "vtcode"


def _quiet_env(home: Path, epoch: int) -> dict[str, str]:
    # The executable must not read the builder's config, and the man page's date must be reproducible.
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "VTCODE_HOME": str(home / ".vtcode"),
        "SOURCE_DATE_EPOCH": str(epoch),
        "LC_ALL": "C.UTF-8",
    }


def stage_release(binary: Path, stage: Path, version: str, epoch: int) -> None:
    """Fill `stage` with the executable, its man page and completions, printed by the executable itself."""
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    target = stage / "vtcode"
    shutil.copyfile(binary, target)
    target.chmod(0o755)
    with tempfile.TemporaryDirectory() as home:
        env = _quiet_env(Path(home), epoch)
        reported = _run([str(target), "--version"], env=env).stdout.strip()
        if reported != f"vtcode {version}":
            raise ReleaseError(f"the executable reports {reported!r}, pyproject.toml says {version}")
        for relative, args in DOCS.items():
            text = _run([str(target), *args], env=env).stdout
            if not text.strip():
                raise ReleaseError(f"`vtcode {' '.join(args)}` printed nothing")
            path = stage / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def check_stage(stage: Path) -> None:
    """The builder's own guard: the stage holds exactly the layout, as regular files."""
    found: set[str] = set()
    for path in sorted(stage.rglob("*")):
        relative = path.relative_to(stage).as_posix()
        if path.is_symlink():
            raise ReleaseError(f"unexpected link in the release stage: {relative}")
        if path.is_file():
            found.add(relative)
        elif not path.is_dir():
            raise ReleaseError(f"unexpected entry in the release stage: {relative}")
    if found != LAYOUT:
        extra, missing = sorted(found - LAYOUT), sorted(LAYOUT - found)
        raise ReleaseError(f"release stage differs from the layout: extra {extra}, missing {missing}")


def _tar_entry(
    name: str, epoch: int, *, mode: int, size: int = 0, directory: bool = False
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE if directory else tarfile.REGTYPE
    info.mode, info.size, info.mtime = mode, size, epoch
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def write_archive(stage: Path, archive: Path, epoch: int) -> None:
    """A reproducible .tar.gz of the stage: sorted entries, no path prefix, fixed owner, modes and times."""
    names = sorted({str(Path(p).parent) for p in LAYOUT if "/" in p} | set(LAYOUT))
    archive.parent.mkdir(parents=True, exist_ok=True)
    partial = archive.with_name(archive.name + ".partial")
    with (
        partial.open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as compressed,
        tarfile.open(fileobj=compressed, mode="w", format=tarfile.USTAR_FORMAT) as tar,
    ):
        for name in names:
            if name not in LAYOUT:
                tar.addfile(_tar_entry(name, epoch, mode=0o755, directory=True))
                continue
            data = (stage / name).read_bytes()
            mode = 0o755 if name == "vtcode" else 0o644
            tar.addfile(_tar_entry(name, epoch, mode=mode, size=len(data)), io.BytesIO(data))
    partial.replace(archive)


def write_checksum(archive: Path) -> Path:
    """`<archive>.sha256` in sha256sum's format."""
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    sha_file = archive.with_name(archive.name + ".sha256")
    sha_file.write_text(f"{digest}  {archive.name}\n", encoding="ascii")
    return sha_file


def release(root: Path, out_dir: Path, work: Path, binary: Path | None) -> Path:
    """Build (or take) the executable, stage, pack, checksum and verify; the archive's path."""
    version = project_version(root)
    epoch = source_date_epoch(root)
    executable = binary if binary is not None else build_binary(root, work)
    stage = work / "stage"
    stage_release(executable, stage, version, epoch)
    check_stage(stage)
    archive = out_dir / f"vtcode-{version}-{platform_tag()}.tar.gz"
    write_archive(stage, archive, epoch)
    write_checksum(archive)
    # The real release path runs the independent verifier; a rejected archive fails the build.
    verifier = root / "scripts" / "verify_release.py"
    # Its report goes to stderr: stdout carries only the archive's path, for scripts.
    proc = subprocess.run([sys.executable, str(verifier), str(archive)], stdout=sys.stderr, check=False)
    if proc.returncode != 0:
        raise ReleaseError(f"the verifier rejected {archive}")
    return archive


def main(argv: list[str] | None = None) -> int:
    """Command line of the release build."""
    parser = argparse.ArgumentParser(prog="release.py", description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=ROOT / "dist", help="where the archive goes")
    parser.add_argument("--work-dir", type=Path, default=ROOT / "build" / "release", help="scratch space")
    parser.add_argument("--binary", type=Path, help="package this executable instead of building one")
    args = parser.parse_args(argv)
    if args.binary is not None and not os.access(args.binary, os.X_OK):
        print(f"release: not an executable file: {args.binary}", file=sys.stderr)
        return 2
    try:
        archive = release(ROOT, args.out_dir.resolve(), args.work_dir.resolve(), args.binary)
    except (ReleaseError, OSError, ValueError) as exc:
        print(f"release: {exc}", file=sys.stderr)
        return 1
    print(archive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
