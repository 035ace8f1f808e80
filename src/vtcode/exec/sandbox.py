"""The OS sandbox of one workspace's commands: checks the kernel, prepares once, confines each child.

Linux only. Landlock confines writes and scopes signals to each command
(exec.landlock); a user namespace held for the whole vtcode session gives every command a private
network and a mount namespace that is read-only outside the writable roots, keeps the protected paths
read-only (placeholders where they do not exist yet) and, with the network off, hides the host's named
Unix sockets (exec.namespaces). `.vtcode/` and the spool folder exist before the first command.
What the kernel lacks is never silently skipped: without Landlock a confining mode refuses to run
commands (the user must choose `--sandbox off`); without user namespaces Landlock still confines
writes, a seccomp filter keeps network off for every socket family, and the user is told what is not
enforced (where neither can keep the network off, commands are refused).
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from vtcode.core.sandbox_policy import (
    DEVICES,
    PROTECTED_PATHS,
    PROTECTED_SHOWN,
    SandboxPolicy,
    writable_paths,
)
from vtcode.exec.sandbox_paths import Placeholders
from vtcode.exec.spool import ensure_spool_folder

if TYPE_CHECKING:
    from vtcode.exec.namespaces import MountPlan, NamespaceHolder, ProtectedPath
    from vtcode.exec.seccomp import Filter

# exec.landlock and exec.namespaces (ctypes, syscalls) load when a sandbox is prepared, not with every
# session manager (start-up time); a confined child gets them resolved before the fork.

log = logging.getLogger(__name__)

FEATURE_LANDLOCK = "landlock"
FEATURE_USER_NAMESPACES = "userns"
KNOWN_FEATURES = (FEATURE_LANDLOCK, FEATURE_USER_NAMESPACES)

_OFF_HINT = (
    'run vtcode with --sandbox off (or set sandbox.mode = "off" in $VTCODE_HOME/vtcode.toml) to run '
    "commands without the sandbox"
)


class SandboxUnavailable(Exception):
    """The configured sandbox cannot be enforced here; the message says why and what to do."""


def landlock_abi(missing: frozenset[str] = frozenset()) -> int:
    """The kernel's Landlock ABI, 0 without one; `missing` may hide it (to exercise the fallback)."""
    if not sys.platform.startswith("linux") or FEATURE_LANDLOCK in missing:
        return 0
    from vtcode.exec import landlock

    return landlock.abi_version()


class Sandbox:
    """The prepared sandbox of one session manager; `child_setup` confines each new command."""

    def __init__(
        self,
        policy: SandboxPolicy,
        workspace: Path,
        *,
        missing: frozenset[str] = frozenset(),
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.policy = policy
        self.workspace = Path(os.path.realpath(workspace))
        self._missing = missing
        self._notify = notify or (lambda message: log.warning("%s", message))
        self._prepared = False
        self._ruleset: int | None = None
        self._holder: NamespaceHolder | None = None
        # Paths outside the list that git reads (a repository's .git above the workspace, a hooks folder).
        self._git_protected: tuple[str, ...] = ()
        self._writable: tuple[str, ...] = ()
        self._seccomp: Filter | None = None
        self._placeholders = Placeholders(self.workspace)

    def prepare(self, env: Mapping[str, str]) -> None:
        """Ready the sandbox on first use (no-op when off); raises SandboxUnavailable."""
        if self.policy.active and not self._prepared:
            try:
                self._prepare(env)
            except BaseException:
                self.close()  # the holder of a failed attempt must not outlive it
                raise
            self._prepared = True

    def _prepare(self, env: Mapping[str, str]) -> None:
        abi = landlock_abi(self._missing)
        mode = f'sandbox.mode = "{self.policy.mode}"'
        if abi < 1:
            raise SandboxUnavailable(
                f"commands cannot run confined: this kernel has no Landlock (Linux 5.13+ with Landlock "
                f"enabled is needed for {mode}); {_OFF_HINT}"
            )
        # Before any command's sandbox is computed: the first command must find them protected.
        with contextlib.suppress(OSError):
            os.close(ensure_spool_folder(self.workspace))
        private_network = not self.policy.network
        if abi < 3:
            gaps = ["truncating a file outside the writable folders is not prevented"]
            if abi < 2:
                gaps.append("moving or linking a file between folders is refused even inside the workspace")
            self._notify(f"sandbox: this kernel has an early Landlock (ABI {abi}): {'; '.join(gaps)}")
        if abi < 6:
            self._notify(
                f"sandbox: this kernel's Landlock (ABI {abi}) cannot scope signals: a command may signal "
                "other processes of the user"
            )
        self._holder = self._start_holder(private_network)
        if self._holder is None:
            self._fallback(private_network)
        from vtcode.exec.git_repo import git_protected_paths

        self._git_protected = git_protected_paths(
            self.workspace, env, writable_roots=self.policy.writable_roots
        )
        from vtcode.exec import landlock, seccomp

        if self._seccomp is None and seccomp.supported():
            self._seccomp = seccomp.Filter(deny_sockets=False)
        elif self._seccomp is None:
            self._notify("sandbox: no seccomp filter for this machine: a command may type into its terminal")
        if self._holder is not None and not self._holder.private_pts():
            self._notify(
                "sandbox: no /dev/pts of the session's own here: the user's other terminals stay writable"
            )
        writable = writable_paths(self.policy, str(self.workspace), _tmp(env))
        grants = [landlock.Grant(path) for path in writable]
        grants += [landlock.Grant(self._device(device), devices_only=True) for device in DEVICES]
        # Abstract Unix sockets are not scoped: the private network namespace already keeps the host's
        # apart, and scoping them per command would cut one command's server off from the next.
        self._ruleset = landlock.build_ruleset(grants, abi, scoped=landlock.SCOPE_SIGNAL)
        self._writable = _mount_roots(writable)

    def _device(self, device: str) -> str:
        """Where a device is for commands: the session's own /dev/pts and /dev/ptmx when it has them."""
        root = self.pty_root()
        if root is not None and (device == "/dev/ptmx" or device.startswith("/dev/pts")):
            return f"{root}{device}"
        return device

    def pty_root(self) -> str | None:
        """The namespace root whose /dev/pts holds the session's terminals (None: the host's)."""
        if self._holder is None or not self._holder.private_pts():
            return None
        return self._holder.root

    def _fallback(self, private_network: bool) -> None:
        """No user namespaces: say what is lost; keep the network off with seccomp or refuse."""
        from vtcode.exec import seccomp

        lost = [
            f"the protected paths ({PROTECTED_SHOWN}) are not read-only",
            "changing modes, owners, times or extended attributes of files outside the writable folders "
            "is not prevented",
            "the user's other terminals (/dev/pts) stay writable",
            "a process that leaves its session and clears its environment can outlive vtcode",
        ]
        if private_network:
            if not seccomp.supported():
                raise SandboxUnavailable(
                    "commands cannot run without network: this system does not allow user namespaces "
                    "and vtcode has no seccomp filter for this machine; set sandbox.network = true to run "
                    f"them with network, or {_OFF_HINT}"
                )
            self._seccomp = seccomp.Filter(deny_sockets=True)
            lost.append(
                "the network is cut by refusing to create any socket (TCP, UDP, Unix; the loopback too, "
                "socketpair still works), so sandbox.allow_unix_sockets is not honoured"
            )
        self._notify(
            "sandbox: this system does not allow user namespaces, so commands are confined by "
            f"Landlock and seccomp only: {'; '.join(lost)}"
        )

    def _start_holder(self, private_network: bool) -> NamespaceHolder | None:
        """The session's namespace holder; None where user namespaces are not allowed."""
        if FEATURE_USER_NAMESPACES in self._missing or not sys.platform.startswith("linux"):
            return None
        from vtcode.exec.namespaces import NamespaceHolder

        try:
            return NamespaceHolder(private_network=private_network)
        except (OSError, subprocess.SubprocessError) as exc:
            log.info("user namespaces unavailable: %s", exc)
            return None

    def protected(self) -> list[ProtectedPath]:
        """The protected paths, resolved, with placeholders where missing; `.git` pinned in place."""
        if self.policy.mode != "workspace-write" or self._holder is None:
            return []
        from vtcode.exec.namespaces import protected_path

        found: list[ProtectedPath] = []
        git = self.workspace / ".git"
        if git.is_dir() and not git.is_symlink():
            found.append(protected_path(str(git), read_only=False))
        for real in dict.fromkeys(self._placeholders.existing(PROTECTED_PATHS)):
            found.append(protected_path(real, read_only=True))
        for path in (*self.policy.protected_extra, *self._git_protected):
            real = os.path.realpath(path)
            # Never the workspace itself or a folder holding it: that would make the workspace read-only.
            if os.path.exists(real) and not self.workspace.is_relative_to(real):
                found.append(protected_path(real, read_only=True))
        return found

    def mount_plan(self) -> MountPlan | None:
        """The mounts of the next command (None without a namespace holder)."""
        if self._holder is None:
            return None
        from vtcode.exec.namespaces import MountPlan
        from vtcode.exec.unix_sockets import host_sockets

        masked: tuple[str, ...] = ()
        if not self.policy.network:
            masked = host_sockets(allowed=self.policy.allow_unix_sockets)
        return MountPlan(writable=self._writable, protected=tuple(self.protected()), masked=masked)

    def child_setup(self, cwd: str) -> Callable[[], None] | None:
        """The function the child runs before exec (None when off); everything is resolved here."""
        if not self._prepared:
            return None
        # Resolved here: the child must not import anything between fork and exec.
        from vtcode.exec import landlock
        from vtcode.exec.namespaces import apply_mount_plan

        holder, ruleset, plan, seccomp = self._holder, self._ruleset, self.mount_plan(), self._seccomp

        def child() -> None:
            if holder is not None and plan is not None:
                holder.enter()
                apply_mount_plan(plan)
                # The working directory was entered before the mounts: enter it again so a relative
                # path cannot reach beneath a read-only mount.
                os.chdir(cwd)
            if ruleset is not None:
                landlock.restrict_self(ruleset)
            if seccomp is not None:
                seccomp.install()

        return child

    def close(self) -> None:
        """Release the ruleset and end the namespace holder."""
        if self._ruleset is not None:
            from vtcode.exec import landlock

            landlock.close_ruleset(self._ruleset)
        self._ruleset = None
        if self._holder is not None:
            self._holder.close()
            self._holder = None
        self._placeholders.remove()
        self._prepared = False


def _mount_roots(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The writable roots that exist, resolved, parents first (each is mounted over its parent)."""
    found = {os.path.realpath(path) for path in paths}
    existing = [path for path in found if os.path.exists(path)]
    return tuple(sorted(existing, key=lambda path: (path.count("/"), path)))


def _tmp(env: Mapping[str, str]) -> str | None:
    value = env.get("TMPDIR", "")
    return os.path.realpath(value) if value and os.path.isabs(value) else None
