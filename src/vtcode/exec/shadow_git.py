"""Tree snapshots of a workspace in a private git directory under $VTCODE_HOME, never the user's `.git`.

The private repository has its own `GIT_DIR` (`snapshots/<project-id>/`) and one index per session;
`--work-tree` is the workspace. Git runs hardened as for vtcode's other git (`SAFE_CONFIG`, a scrubbed
environment, a `git` nobody could plant) and reads no global or system config, so neither the user's
config nor a hook runs. The workspace's `.gitignore` files apply as for the user; the repository's
`info/exclude` is copied into the private one with the files and folders a snapshot skips. No refs are
written by a snapshot: `keep` names the live trees just before `gc` prunes the rest.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import stat
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

import msgspec

from vtcode.core.git_safety import SAFE_CONFIG, git_environment
from vtcode.exec.git_repo import GitAccess, find_git, locate, writable_folders

log = logging.getLogger(__name__)

SNAPSHOTS_DIR = "snapshots"
_TIMEOUT_SECONDS = 600.0
# Above this many changed paths, `git add` walks the work tree instead of taking the list.
_PATHSPEC_LIMIT = 500
_EXTRA_CONFIG = ("gc.auto=0", "core.autocrlf=false", "core.safecrlf=false", "core.bigFileThreshold=2m")


class TreeEntry(msgspec.Struct, frozen=True):
    """A path's mode (git's: 100644, 100755, 120000) and blob id in a tree."""

    mode: str
    oid: str


class TreeChange(msgspec.Struct, frozen=True):
    """One path that differs between two trees (None: absent on that side)."""

    path: str
    before: TreeEntry | None
    after: TreeEntry | None


class SnapshotLimits(msgspec.Struct):
    """What a snapshot leaves out: files over `max_file_bytes`, untracked folders over `max_folder_files`."""

    max_file_bytes: int = 2 * 1024 * 1024
    max_folder_files: int = 200
    # Skipped paths (workspace-relative, folders end with "/"), each warned about once.
    skipped: set[str] = msgspec.field(default_factory=set)


class ShadowGitError(Exception):
    """A snapshot command failed."""


def project_id(workspace: Path) -> str:
    """A stable directory name for a workspace (its real path, hashed)."""
    real = os.path.realpath(workspace)
    return hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]


class ShadowGit:
    """Snapshots of one workspace into a private git directory (`available` False without git)."""

    def __init__(self, home: Path, workspace: Path, env: Mapping[str, str], *, index_name: str) -> None:
        self.workspace = Path(os.path.realpath(workspace))
        self.git_dir = home / SNAPSHOTS_DIR / project_id(self.workspace)
        self._index = self.git_dir / "indexes" / index_name
        self._program = find_git(env, writable_folders(self.workspace, env))
        self._env = git_environment(env)
        # Neither the user's global nor the machine's config decides what a snapshot holds or runs.
        self._env["GIT_CONFIG_GLOBAL"] = os.devnull
        self._env["GIT_INDEX_FILE"] = str(self._index)
        # vtcode's own files (spooled output, and $VTCODE_HOME when it lies inside the workspace, as
        # the snapshots themselves do then) are never part of a snapshot.
        self._own = [".vtcode/"]
        home_rel = os.path.relpath(os.path.realpath(home), self.workspace)
        if home_rel != "." and not home_rel.startswith(".."):
            self._own.append(home_rel.rstrip("/") + "/")

    @property
    def available(self) -> bool:
        """Whether a trusted `git` was found."""
        return self._program is not None

    def snapshot(self, limits: SnapshotLimits, user_git: GitAccess | None = None) -> tuple[str, list[str]]:
        """Write the workspace's tree; returns its id and the paths skipped for the first time.

        With `user_git`, untracked folders of the user's repository are counted (read-only) and those
        over the limit are left out.
        """
        self._init()
        new: list[str] = []
        if user_git is not None:
            new += self._skip_folders(limits, user_git)
        # One scan of the work tree: new, modified and deleted files against this session's index.
        listed = self._git("ls-files", "-z", "--others", "--modified", "--deleted", "--exclude-standard")
        big: list[str] = []
        small: list[bytes] = []
        for raw in dict.fromkeys(listed.split(b"\0")):
            if not raw:
                continue
            rel = os.fsdecode(raw)
            try:
                info = os.lstat(self.workspace / rel)
            except OSError:
                small.append(raw)  # deleted: its removal is staged
                continue
            if stat.S_ISREG(info.st_mode) and info.st_size > limits.max_file_bytes:
                big.append(rel)
            else:
                small.append(raw)
        fresh = [p for p in big if p not in limits.skipped]
        if fresh:
            limits.skipped.update(fresh)
            new += fresh
            self._write_excludes(limits.skipped)
        if big:
            # A file that grew past the limit leaves the index (it is excluded from now on).
            data = b"\0".join(map(os.fsencode, big))
            self._git("update-index", "--force-remove", "-z", "--stdin", data=data)
        if len(small) > _PATHSPEC_LIMIT:
            # Many paths (a first snapshot): one walk of the work tree beats matching each pathspec.
            self._git("add", "-A", "--ignore-errors", "--", ".", check=False)
        elif small:
            # Only the listed paths: git does not walk the work tree a second time.
            self._git(
                "--literal-pathspecs", "add", "-A", "--ignore-errors", "--pathspec-from-file=-",
                "--pathspec-file-nul", data=b"\0".join(small), check=False,
            )  # fmt: skip
        tree = self._git("write-tree").decode().strip()
        return tree, new

    def diff(self, before: str, after: str) -> list[TreeChange]:
        """The paths that differ between two trees (renames as a delete and an add)."""
        if before == after:
            return []
        out = self._git("diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", before, after)
        parts = out.split(b"\0")
        changes: list[TreeChange] = []
        for header, raw in zip(parts[0::2], parts[1::2], strict=False):
            if not header.startswith(b":"):
                continue
            old_mode, new_mode, old_oid, new_oid, _ = header[1:].decode().split(" ", 4)
            changes.append(TreeChange(os.fsdecode(raw), _entry(old_mode, old_oid), _entry(new_mode, new_oid)))
        return changes

    def entries(self, tree: str, paths: Iterable[str]) -> dict[str, TreeEntry]:
        """The entries of `paths` in `tree` (absent paths are left out)."""
        wanted = list(paths)
        if not wanted:
            return {}
        out = self._git("ls-tree", "-z", "--full-tree", tree, "--", *wanted)
        found: dict[str, TreeEntry] = {}
        for line in out.split(b"\0"):
            if line:
                meta, raw = line.split(b"\t", 1)
                mode, _kind, oid = meta.decode().split(" ")
                found[os.fsdecode(raw)] = TreeEntry(mode, oid)
        return found

    def read_blob(self, oid: str) -> bytes:
        """A blob's content."""
        return self._git("cat-file", "blob", oid)

    def read_blobs(self, oids: Iterable[str]) -> dict[str, bytes]:
        """Several blobs' contents in one git run (missing ones are left out)."""
        wanted = list(dict.fromkeys(oids))
        if not wanted:
            return {}
        out = self._git("cat-file", "--batch", data=("\n".join(wanted) + "\n").encode())
        found: dict[str, bytes] = {}
        at = 0
        for oid in wanted:
            end = out.index(b"\n", at)
            header = out[at:end].split(b" ")
            at = end + 1
            if len(header) != 3:
                continue  # "<oid> missing"
            size = int(header[2])
            found[oid] = out[at : at + size]
            at += size + 1
        return found

    def keep(self, trees: Iterable[str]) -> None:
        """Make `trees` the only roots `gc` keeps (one ref each under refs/vtcode/keep/)."""
        self._init()
        current = self._git("for-each-ref", "--format=%(refname)", "refs/vtcode/keep/").decode().split()
        lines = [f"delete {ref}" for ref in current]
        lines += [f"update refs/vtcode/keep/{tree} {tree}" for tree in dict.fromkeys(trees)]
        if lines:
            self._git("update-ref", "--stdin", data=("\n".join(lines) + "\n").encode())

    def gc(self) -> None:
        """Pack what is kept and drop the objects no kept tree reaches.

        Objects of the last hour stay: a session snapshotting right now has not recorded its tree yet.
        """
        self._init()
        self._git("gc", "--quiet", "--prune=1.hour.ago")

    def disk_bytes(self) -> int:
        """Bytes the private git directory takes on disk."""
        return folder_bytes(self.git_dir)

    def _init(self) -> None:
        if (self.git_dir / "HEAD").exists():
            return
        self.git_dir.parent.mkdir(parents=True, exist_ok=True)
        self._git("init", "--quiet", "--bare", str(self.git_dir), located=False)
        (self.git_dir / "indexes").mkdir(exist_ok=True)
        self._write_excludes(set())

    def _write_excludes(self, skipped: set[str]) -> None:
        own = (_pattern(p) for p in self._own)
        lines = [_user_excludes(self.workspace), *own, *sorted(_pattern(p) for p in skipped)]
        info = self.git_dir / "info"
        info.mkdir(exist_ok=True)
        (info / "exclude").write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogateescape")

    def _skip_folders(self, limits: SnapshotLimits, user_git: GitAccess) -> list[str]:
        argv = user_git.command("ls-files", "-z", "--others", "--directory", "--exclude-standard")
        if argv is None:
            return []
        try:
            done = subprocess.run(
                argv, cwd=self.workspace, env=user_git.environment, stdin=subprocess.DEVNULL,
                capture_output=True, timeout=_TIMEOUT_SECONDS, check=False,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            log.info("could not list untracked folders: %s", exc)
            return []
        top = Path(user_git.location.top) if user_git.location is not None else self.workspace
        new: list[str] = []
        for raw in done.stdout.split(b"\0"):
            rel = os.fsdecode(raw)
            if not rel.endswith("/") or rel in limits.skipped:
                continue
            folder = top / rel
            try:
                inside = os.path.relpath(folder, self.workspace)
            except ValueError:
                continue
            if (
                inside.startswith("..")
                or _count_files(folder, limits.max_folder_files) <= limits.max_folder_files
            ):
                continue
            key = inside.rstrip("/") + "/"
            limits.skipped.add(key)
            new.append(key)
        if new:
            self._write_excludes(limits.skipped)
        return new

    def _git(self, *args: str, data: bytes | None = None, check: bool = True, located: bool = True) -> bytes:
        if self._program is None:
            raise ShadowGitError("git is not available")
        config = [part for pair in (*SAFE_CONFIG, *_EXTRA_CONFIG) for part in ("-c", pair)]
        location = [f"--git-dir={self.git_dir}", f"--work-tree={self.workspace}"] if located else []
        try:
            done = subprocess.run(
                [self._program, *config, *location, *args],
                cwd=self.workspace,
                env=self._env,
                input=data,
                stdin=None if data is not None else subprocess.DEVNULL,
                capture_output=True,
                timeout=_TIMEOUT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ShadowGitError(f"git {args[0]} failed: {exc}") from exc
        if check and done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip()
            raise ShadowGitError(f"git {args[0]} failed: {message}")
        return done.stdout


def remove_project(home: Path, workspace: Path) -> None:
    """Delete a workspace's private snapshot directory."""
    shutil.rmtree(home / SNAPSHOTS_DIR / project_id(workspace), ignore_errors=True)


def _entry(mode: str, oid: str) -> TreeEntry | None:
    return None if mode == "000000" else TreeEntry(mode, oid)


def _pattern(rel: str) -> str:
    """An anchored ignore pattern matching exactly `rel` (folders keep their trailing slash)."""
    escaped = "".join("\\" + c if c in "*?[]\\!# " else c for c in rel)
    return "/" + escaped


def _count_files(folder: Path, limit: int) -> int:
    count = 0
    for _root, _dirs, files in os.walk(folder):
        count += len(files)
        if count > limit:
            break
    return count


def _user_excludes(workspace: Path) -> str:
    """The user repository's `info/exclude` (read, never written), or nothing."""
    try:
        location = locate(workspace)
    except ValueError:
        return ""
    if location is None:
        return ""
    try:
        return Path(location.common_dir, "info", "exclude").read_text(
            encoding="utf-8", errors="surrogateescape"
        )
    except OSError:
        return ""


def folder_bytes(root: Path) -> int:
    """Bytes the files below `root` take on disk (allocated blocks; a file that vanishes counts 0)."""
    total = 0
    for folder, _dirs, files in os.walk(root):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_blocks * 512
            except OSError:
                continue
    return total
