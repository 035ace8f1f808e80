"""A batch task's workspace: a checkout of a git mirror or a copy of a folder, and its patch.

A mirror is cloned with `--shared` (its objects are borrowed, not copied; the mirror is never written,
so many tasks can check out of one read-only mirror at once, also on a shared file system). A folder is
copied and its state committed as the base, so the patch holds the agent's changes only. The patch is
`git diff --binary` of everything against the base (new files included, `.vtcode/` excluded), made
with a private index so the workspace's own index is left as the agent left it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

from vtcode.core.git_safety import SAFE_CONFIG, git_environment

_IDENT = (
    "-c",
    "user.name=vtcode batch",
    "-c",
    "user.email=batch@vtcode.invalid",
    "-c",
    "commit.gpgsign=false",
)
_SAFE = tuple(arg for pair in SAFE_CONFIG if not pair.startswith("protocol.") for arg in ("-c", pair))
# Every path of the workspace except vtcode's own folder (the spool, SPEC section 3).
_PATHSPEC = (".", ":(top,exclude).vtcode")


class WorkspaceError(Exception):
    """The workspace could not be made or read (a missing mirror, an unknown commit, a git failure)."""


async def _git(
    steps: Sequence[Sequence[str]], env: Mapping[str, str], *, extra: Mapping[str, str] | None = None
) -> bytes:
    """Run git once per step (each a list of git arguments), in order, stopping at the first failure.

    The steps run in one `sh` started by the driver, so a task's workspace costs the driver two
    process starts instead of one per git call (the batch's own CPU is mostly process starts).
    """
    script = "set -e\n" + "\n".join(
        " ".join(shlex.quote(arg) for arg in ("git", *_SAFE, *step)) for step in steps
    )
    proc = await asyncio.create_subprocess_exec(
        "/bin/sh",
        "-c",
        script,
        env={**git_environment(env), **(extra or {})},
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    if proc.returncode != 0:
        detail = err.decode("utf-8", "replace").strip().splitlines()
        raise WorkspaceError(f"git failed: {detail[-1] if detail else f'exit {proc.returncode}'}")
    return out


async def checkout_mirror(mirror: str, commit: str, dest: Path, env: Mapping[str, str]) -> str:
    """Check `commit` of the git repository `mirror` out at `dest` (new); returns the full commit id."""
    if not await asyncio.to_thread(os.path.isdir, mirror):
        raise WorkspaceError(f"no git mirror at {mirror}")
    at = ["-C", str(dest)]
    out = await _git(
        [
            ["clone", "--quiet", "--shared", "--no-checkout", "--", mirror, str(dest)],
            [*at, "checkout", "--quiet", "--detach", commit, "--"],
            [*at, "rev-parse", "HEAD"],
        ],
        env,
    )
    return out.decode().strip()


async def copy_folder(source: str, dest: Path, env: Mapping[str, str]) -> str:
    """Copy the folder `source` to `dest` and commit its state as the base; returns that commit."""
    if not await asyncio.to_thread(os.path.isdir, source):
        raise WorkspaceError(f"no folder at {source}")
    try:
        await asyncio.to_thread(shutil.copytree, source, dest, symlinks=True)
    except (OSError, shutil.Error) as exc:
        raise WorkspaceError(f"could not copy {source}: {exc}") from None
    return await commit_base(dest, env)


async def commit_base(dest: Path, env: Mapping[str, str]) -> str:
    """Make `dest` a repository (if it is none) whose HEAD is its current state; returns HEAD."""
    at = ["-C", str(dest)]
    fresh = not await asyncio.to_thread(os.path.lexists, dest / ".git")
    out = await _git(
        [
            *([[*at, "init", "--quiet"]] if fresh else []),
            [*at, "add", "-A", "--", *_PATHSPEC],
            [*at, *_IDENT, "commit", "--quiet", "--allow-empty", "--no-verify", "-m", "vtcode batch base"],
            [*at, "rev-parse", "HEAD"],
        ],
        env,
    )
    return out.decode().strip()


async def workspace_patch(workspace: Path, base: str, env: Mapping[str, str]) -> bytes:
    """Every change since `base` (committed, staged, unstaged, new files) as a binary-safe diff."""
    index = workspace.parent / f".{workspace.name}.batch-index"
    at = ["-C", str(workspace)]
    try:
        return await _git(
            [
                [*at, "read-tree", base],
                [*at, "add", "-A", "--", *_PATHSPEC],
                [
                    *at,
                    "diff",
                    "--cached",
                    "--binary",
                    "--full-index",
                    "--no-color",
                    "--no-ext-diff",
                    base,
                    "--",
                ],
            ],
            env,
            extra={"GIT_INDEX_FILE": str(index)},
        )
    finally:
        index.unlink(missing_ok=True)


def remove_tree(path: Path) -> None:
    """Remove a task's scratch folder, read-only folders left by its commands included."""
    shutil.rmtree(path, ignore_errors=True)
    if not path.exists():
        return
    for folder, dirs, _files in os.walk(path):
        for name in dirs:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(folder, name), 0o700)
    shutil.rmtree(path, ignore_errors=True)
