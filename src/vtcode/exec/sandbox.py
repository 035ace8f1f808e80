"""The OS sandbox of one workspace's commands: checks the kernel, prepares once, confines each child.

Linux only. Landlock confines writes (exec.landlock); a user namespace held for the whole vtcode session
gives every command a private network and the mounts that keep the protected paths read-only
(exec.namespaces). What the kernel lacks is never silently skipped: without Landlock a confining mode
refuses to run commands (the user must choose `--sandbox off`); without user namespaces Landlock still
confines writes and the user is told what is not enforced (network off then falls back to Landlock's
TCP rules where the kernel has them, else commands are refused as well).
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

if TYPE_CHECKING:
    from vtcode.exec.namespaces import NamespaceHolder, ProtectedPath

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
        self._tcp_denied = False
        # Paths outside the list that git reads (a repository's .git above the workspace, a hooks folder).
        self._git_protected: tuple[str, ...] = ()

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
        private_network = not self.policy.network
        if abi < 3:
            gaps = ["truncating a file outside the writable folders is not prevented"]
            if abi < 2:
                gaps.append("moving or linking a file between folders is refused even inside the workspace")
            self._notify(f"sandbox: this kernel has an early Landlock (ABI {abi}): {'; '.join(gaps)}")
        self._holder = self._start_holder(private_network)
        if self._holder is None:
            lost = [f"the protected paths ({PROTECTED_SHOWN}) are not read-only"]
            if private_network:
                if abi < 4:
                    raise SandboxUnavailable(
                        "commands cannot run without network: this system does not allow user namespaces "
                        "and its Landlock has no network rules; set sandbox.network = true to run them "
                        f"with network, or {_OFF_HINT}"
                    )
                self._tcp_denied = True
                lost.append("the network is cut by denying every TCP connection (the loopback too)")
            self._notify(
                "sandbox: this system does not allow user namespaces, so commands are confined by "
                f"Landlock only: {'; '.join(lost)}"
            )
        self._ensure_hooks_folder()
        from vtcode.exec.git_repo import git_protected_paths

        self._git_protected = git_protected_paths(
            self.workspace, env, writable_roots=self.policy.writable_roots
        )
        from vtcode.exec import landlock

        grants = [
            landlock.Grant(path) for path in writable_paths(self.policy, str(self.workspace), _tmp(env))
        ]
        grants += [landlock.Grant(device, devices_only=True) for device in DEVICES]
        self._ruleset = landlock.build_ruleset(grants, abi, deny_tcp=self._tcp_denied)

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

    def _ensure_hooks_folder(self) -> None:
        # Without a hooks folder there is nothing to mount read-only, and a command could create one.
        git = self.workspace / ".git"
        if self._holder is not None and git.is_dir() and not (git / "hooks").exists():
            with contextlib.suppress(OSError):
                (git / "hooks").mkdir()

    def protected(self) -> list[ProtectedPath]:
        """The protected paths that exist now, resolved; `.git` itself pinned so it cannot be replaced."""
        if self.policy.mode != "workspace-write" or self._holder is None:
            return []
        from vtcode.exec.namespaces import protected_path

        found: list[ProtectedPath] = []
        git = self.workspace / ".git"
        if git.is_dir() and not git.is_symlink():
            found.append(protected_path(str(git), read_only=False))
        for name in PROTECTED_PATHS:
            real = os.path.realpath(self.workspace / name)
            if Path(real).is_relative_to(self.workspace) and os.path.exists(real):
                found.append(protected_path(real, read_only=True))
        for path in (*self.policy.protected_extra, *self._git_protected):
            real = os.path.realpath(path)
            # Never the workspace itself or a folder holding it: that would make the workspace read-only.
            if os.path.exists(real) and not self.workspace.is_relative_to(real):
                found.append(protected_path(real, read_only=True))
        return found

    def child_setup(self, cwd: str) -> Callable[[], None] | None:
        """The function the child runs before exec (None when off); everything is resolved here."""
        if not self._prepared:
            return None
        # Resolved here: the child must not import anything between fork and exec.
        from vtcode.exec import landlock
        from vtcode.exec.namespaces import protect_paths

        holder, ruleset, paths = self._holder, self._ruleset, self.protected()

        def child() -> None:
            if holder is not None:
                holder.enter()
                if paths:
                    protect_paths(paths)
                # The working directory was entered before the mounts: enter it again so a relative
                # path cannot reach beneath a read-only mount.
                os.chdir(cwd)
            if ruleset is not None:
                landlock.restrict_self(ruleset)

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
        self._prepared = False


def _tmp(env: Mapping[str, str]) -> str | None:
    value = env.get("TMPDIR", "")
    return os.path.realpath(value) if value and os.path.isabs(value) else None
