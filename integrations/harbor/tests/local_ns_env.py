"""A Harbor environment for tests: a per-trial root folder entered with chroot in a private mount namespace.

Not Docker, but the same contract at the boundary Harbor uses (`exec`, uploads, downloads): the task's
paths (/app, /logs, /tests, /solution, /installed-agent, /tmp, /root) are plain folders of the trial's
root, the host's /usr and /etc are bound read-only, and nothing the agent or the verifier writes reaches
the host's own root (Harbor creates /installed-agent as root: confined here). Commands get a fixed base
environment plus what Harbor passes per command, never the host's variables. The network is whatever the
calling process has: the tests run Harbor inside `unshare -n`, so only loopback exists.

Every `exec` is appended to `<root>.exec.jsonl` (command, the names of the variables it got), outside the
root, so tests can check what ran and with which environment.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import signal
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any

from harbor.environments.base import BaseEnvironment, ExecResult
from harbor.environments.capabilities import EnvironmentCapabilities

# Task paths that are folders of the trial's root; anything else is refused rather than touched on the host.
CONFINED = ("app", "logs", "tests", "solution", "installed-agent", "tmp", "root")
BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8", "TMPDIR": "/tmp"}
WORKDIR = "/app"
# The host's tools that set the root up, found where root's tools live (not on the commands' PATH).
_SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"


def _tool(name: str) -> str:
    found = shutil.which(name, path=_SYSTEM_PATH)
    if found is None:
        raise RuntimeError(f"LocalNsEnvironment needs `{name}`")
    return found


class LocalNsEnvironment(BaseEnvironment):
    """One trial's confined root; `--ek root_base=DIR` says where roots are made (default: the temp dir)."""

    def __init__(self, *args: Any, root_base: str | None = None, **kwargs: Any) -> None:
        self._root_base = Path(root_base) if root_base else Path(tempfile.gettempdir())
        self._root: Path | None = None
        super().__init__(*args, **kwargs)

    @staticmethod
    def type() -> str:
        """Any string names a third-party environment."""
        return "local-ns"

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        """Not mounted: Harbor downloads /logs itself, as from a remote sandbox."""
        return EnvironmentCapabilities(mounted=False)

    def _validate_definition(self) -> None:
        return None

    @property
    def root(self) -> Path:
        """The trial's root folder (after `start`)."""
        if self._root is None:
            raise RuntimeError("the environment has not started")
        return self._root

    def host_path(self, path: str) -> Path:
        """The host path of a task path; refuses paths outside the confined folders."""
        pure = PurePosixPath(path)
        if (
            not pure.is_absolute()
            or ".." in pure.parts
            or len(pure.parts) < 2
            or pure.parts[1] not in CONFINED
        ):
            raise ValueError(f"{path} is outside the confined task paths {CONFINED}")
        return self.root.joinpath(*pure.parts[1:])

    async def start(self, force_build: bool) -> None:
        """Make the root: task folders, mount points for the host's /usr, /etc, /dev, /proc."""
        self._root_base.mkdir(parents=True, exist_ok=True)
        root = Path(tempfile.mkdtemp(prefix=f"{self.session_id}-", dir=self._root_base))
        for name in (*CONFINED, "usr", "etc", "dev", "proc", "logs/agent", "logs/verifier", "logs/artifacts"):
            (root / name).mkdir(parents=True, exist_ok=True)
        (root / "tmp").chmod(0o1777)
        for name in ("bin", "lib", "lib64", "sbin"):
            host = Path("/") / name
            if host.is_symlink():
                (root / name).symlink_to(os.readlink(host))
            elif host.is_dir():
                (root / name).mkdir()
        self._root = root

    async def stop(self, delete: bool) -> None:
        """Remove the root when asked (nothing is mounted outside a running command)."""
        if delete and self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)

    async def upload_file(self, source_path: Path | str, target_path: str) -> None:
        """Copy a host file into the root."""
        target = self.host_path(target_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source_path, target)

    async def upload_dir(self, source_dir: Path | str, target_dir: str) -> None:
        """Copy a host folder into the root."""
        shutil.copytree(source_dir, self.host_path(target_dir), dirs_exist_ok=True)

    async def download_file(self, source_path: str, target_path: Path | str) -> None:
        """Copy a file of the root to the host."""
        Path(target_path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.host_path(source_path), target_path)

    async def download_dir(self, source_dir: str, target_dir: Path | str) -> None:
        """Copy a folder of the root to the host."""
        shutil.copytree(self.host_path(source_dir), target_dir, dirs_exist_ok=True, symlinks=True)

    def _script(self, command: str, cwd: str) -> str:
        root = shlex.quote(str(self.root))
        mount, chroot = _tool("mount"), _tool("chroot")
        inner = f"cd {shlex.quote(cwd)} && {command}"
        return (
            "set -e; "
            + "".join(
                f"{mount} --bind /{d} {root}/{d}; {mount} -o remount,bind,ro {root}/{d}; "
                for d in ("usr", "etc")
            )
            + f"{mount} --rbind /dev {root}/dev; {mount} -t proc proc {root}/proc; "
            + f"exec {chroot} {root} /bin/bash -c {shlex.quote(inner)}"
        )

    async def exec(
        self,
        command: str,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout_sec: int | None = None,
        user: str | int | None = None,
    ) -> ExecResult:
        """Run `command` with bash inside the root, as root; the result's streams as text."""
        merged = {**BASE_ENV, **(self._merge_env(env) or {})}
        with open(f"{self.root}.exec.jsonl", "a", encoding="utf-8") as log:
            log.write(json.dumps({"command": command, "env": sorted(merged), "user": str(user)}) + "\n")
        proc = await asyncio.create_subprocess_exec(
            _tool("unshare"),
            "--mount",
            "--propagation",
            "private",
            "bash",
            "-c",
            self._script(command, cwd or WORKDIR),
            env=merged,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        try:
            out, err = await asyncio.wait_for(proc.communicate(), timeout=timeout_sec)
        except TimeoutError:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
            raise
        return ExecResult(
            stdout=out.decode(errors="replace"),
            stderr=err.decode(errors="replace"),
            return_code=proc.returncode if proc.returncode is not None else -1,
        )
