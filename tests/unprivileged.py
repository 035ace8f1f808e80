"""Running the real `vtcode` CLI as an ordinary (unprivileged) user, for the sandbox tests.

Root passes many checks an ordinary user does not (and the reverse: a user namespace drops root's
powers), so sandbox tests run both ways. Where the tests run as root, a fresh user is created for the
test session (`useradd`) and removed at its end; elsewhere the tests already run unprivileged and the
second run is skipped with a reason.

tests/conftest.py registers it as a plugin (one unprivileged user per session, for every folder);
a test takes the parametrized `as_user` fixture: `as_user.vtcode(args, cwd=..., env=...)` runs the CLI as
the current user ("current") and again as the fresh unprivileged one ("unprivileged"). Folders it works
in must be reachable by that user: make them with `as_user.tmpdir()`.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import Completed

# Entries of the environment the unprivileged run keeps (HOME and the rest are the run's own).
_KEEP_ENV = ("LANG", "LC_ALL", "TERM", "TZ")
_SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


@dataclass(frozen=True)
class UnprivilegedUser:
    """An ordinary account created for this test session."""

    name: str
    uid: int
    gid: int
    python: str


def _python_for(uid: int) -> str | None:
    """An interpreter of this Python version that `uid` may run (the venv's may live under /root)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [os.path.realpath(sys.executable), f"/usr/bin/{version}", f"/usr/local/bin/{version}"]
    for candidate in candidates:
        if not os.access(candidate, os.X_OK):
            continue
        try:
            probe = subprocess.run(
                [candidate, "-c", "import sys; print(sys.version_info[:2])"],
                user=uid,
                capture_output=True,
                text=True,
                check=False,
                cwd="/",
            )
        except OSError:
            continue  # not reachable by the user (a venv under /root)
        if probe.returncode == 0 and probe.stdout.strip() == str(tuple(sys.version_info[:2])):
            return candidate
    return None


def _useradd(name: str) -> None:
    # Other test sessions may be adding users at the same moment: /etc/passwd is then locked briefly.
    for attempt in range(20):
        done = subprocess.run(
            ["useradd", "--no-create-home", "--user-group", "--shell", "/bin/sh", name],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode == 0:
            return
        time.sleep(0.2 * (attempt + 1))
    raise RuntimeError(f"useradd {name} failed: {done.stderr.strip()}")


@pytest.fixture(scope="session")
def unprivileged_user() -> Iterator[UnprivilegedUser]:
    """A fresh ordinary user (root only); skips with the reason where none can be made."""
    if os.geteuid() != 0:
        pytest.skip("the tests already run as an ordinary user: no second, unprivileged run needed")
    if shutil.which("useradd") is None:
        pytest.skip("useradd is not installed: cannot create an unprivileged user for the sandbox tests")
    name = f"vtct-{os.getpid()}-{os.urandom(2).hex()}"
    _useradd(name)
    try:
        entry = pwd.getpwnam(name)
        python = _python_for(entry.pw_uid)
        if python is None:
            pytest.skip(f"no Python {sys.version_info.major}.{sys.version_info.minor} the new user may run")
        yield UnprivilegedUser(name=name, uid=entry.pw_uid, gid=entry.pw_gid, python=python)
    finally:
        for _ in range(20):
            gone = subprocess.run(["userdel", name], capture_output=True, check=False)
            if gone.returncode in (0, 6):  # 6: no such user
                break
            time.sleep(0.2)


@dataclass
class Identity:
    """Who runs vtcode in a test: the current user, or the session's unprivileged one."""

    kind: str
    user: UnprivilegedUser | None
    home: Path
    _made: list[Path] = field(default_factory=list)

    @property
    def uid(self) -> int:
        """The uid vtcode runs as."""
        return self.user.uid if self.user is not None else os.geteuid()

    def tmpdir(self, prefix: str = "vtcode-as-user-", parent: str = "/var/tmp") -> Path:
        """A fresh folder owned by the identity; under /var/tmp (outside the temp folders a sandbox allows)
        unless `parent` says otherwise (/tmp: a folder commands may write)."""
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        self._made.append(path)
        if self.user is not None:
            os.chown(path, self.user.uid, self.user.gid)
        return path

    def chown_tree(self, path: Path) -> None:
        """Give everything beneath `path` to the identity (files a test made as root)."""
        if self.user is None:
            return
        for root, dirs, files in os.walk(path):
            for name in [*dirs, *files]:
                os.chown(os.path.join(root, name), self.user.uid, self.user.gid, follow_symlinks=False)
        os.chown(path, self.user.uid, self.user.gid)

    def command(self, *args: str) -> list[str]:
        """argv of the vtcode CLI for this identity."""
        return self.module("vtcode", *args)

    def module(self, name: str, *args: str) -> list[str]:
        """argv running `python -m name args` for this identity, with the test environment's packages."""
        if self.user is None:
            return [sys.executable, "-m", name, *args]
        # The venv's site-packages (with the editable install's .pth) on an interpreter the user may run.
        site = sysconfig.get_paths()["purelib"]
        bootstrap = (
            f"import site, sys, runpy; site.addsitedir({site!r}); sys.argv[0] = {name!r}; "
            f"runpy.run_module({name!r}, run_name='__main__', alter_sys=True)"
        )
        return [self.user.python, "-c", bootstrap, *args]

    def script(self, path: Path, *args: str) -> list[str]:
        """argv running the Python file `path` for this identity, with the test environment's packages."""
        if self.user is None:
            return [sys.executable, str(path), *args]
        site = sysconfig.get_paths()["purelib"]
        bootstrap = (
            f"import site, sys, runpy; site.addsitedir({site!r}); sys.argv[0] = {str(path)!r}; "
            f"runpy.run_path({str(path)!r}, run_name='__main__')"
        )
        return [self.user.python, "-c", bootstrap, *args]

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of a vtcode run as this identity."""
        if self.user is None:
            env = dict(os.environ)
        else:
            env = {key: os.environ[key] for key in _KEEP_ENV if key in os.environ}
            venv_bin = str(Path(sys.executable).parent)
            env.update(
                {"PATH": f"{_SYSTEM_PATH}:{venv_bin}", "USER": self.user.name, "LOGNAME": self.user.name}
            )
        env.update({"HOME": str(self.home), "VTCODE_HOME": str(self.home / ".vtcode")})
        env.update(extra or {})
        return env

    @property
    def python(self) -> str:
        """An interpreter this identity may run, for helper processes that need no packages."""
        return self.user.python if self.user is not None else sys.executable

    def popen(self, argv: Sequence[str], **kwargs: object) -> subprocess.Popen[str]:
        """Start `argv` as this identity (text mode)."""
        if self.user is not None:
            kwargs.setdefault("user", self.user.uid)
            kwargs.setdefault("group", self.user.gid)
            kwargs.setdefault("extra_groups", [])
        return subprocess.Popen(list(argv), text=True, **kwargs)  # type: ignore[call-overload,no-any-return]

    def vtcode(
        self,
        *args: str,
        cwd: Path,
        env: Mapping[str, str] | None = None,
        input: str | None = None,
        timeout: float = 60,
    ) -> Completed:
        """Run the vtcode CLI to completion as this identity."""
        proc = self.popen(
            self.command(*args),
            cwd=cwd,
            env=self.env(env),
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            raise
        return Completed(proc.returncode, out, err)

    def cleanup(self) -> None:
        """Remove the folders made for this identity."""
        for path in self._made:
            shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(params=["current", "unprivileged"])
def as_user(request: pytest.FixtureRequest) -> Iterator[Identity]:
    """Runs the test as the current user, then again as a fresh unprivileged user (see module doc)."""
    user: UnprivilegedUser | None = None
    if request.param == "unprivileged":
        user = request.getfixturevalue("unprivileged_user")
    identity = Identity(kind=request.param, user=user, home=Path("/"))
    identity.home = identity.tmpdir("vtcode-home-")
    try:
        yield identity
    finally:
        with contextlib.suppress(OSError):
            identity.cleanup()
