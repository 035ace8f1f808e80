"""The OS sandbox policy for commands: what a command may write and whether it reaches the network.

| mode              | writes allowed                                                               |
| ----------------- | ---------------------------------------------------------------------------- |
| `read-only`       | nowhere but `/dev/null`-class devices                                        |
| `workspace-write` | the workspace (minus the protected paths), `/tmp`, `$TMPDIR`, writable roots |
| `off`             | whatever the user may write (no sandbox)                                     |

Reading and running programs stay allowed everywhere. The protected paths are inside the writable
workspace but read-only for commands, since git (or vtcode itself) later runs what they hold outside
the sandbox.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SandboxMode = Literal["read-only", "workspace-write", "off"]
SANDBOX_MODES: tuple[SandboxMode, ...] = ("read-only", "workspace-write", "off")
"""Strictest first, as the config trust rule compares them."""

PROTECTED_PATHS: tuple[str, ...] = (".git/hooks", ".git/config", ".vtcode", "vtcode.toml")
"""Workspace paths commands may read but never change (relative to the workspace)."""

TEMP_FOLDERS: tuple[str, ...] = ("/tmp", "/dev/shm")
"""Shared temporary folders writable in `workspace-write` (besides `$TMPDIR`)."""

DEVICES: tuple[str, ...] = (
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
)
"""Devices any command may open for writing, in every mode."""


@dataclass(frozen=True)
class SandboxPolicy:
    """`[sandbox]` after layering: the mode, the network switch and extra writable folders."""

    mode: SandboxMode = "off"
    network: bool = True
    writable_roots: tuple[str, ...] = ()
    # Named Unix sockets outside the session that commands may connect to with the network off.
    allow_unix_sockets: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        """Whether commands run confined at all."""
        return self.mode != "off"

    def describe(self) -> str:
        """A short phrase naming the mode and network, for notices and tool results."""
        if not self.active:
            return "no sandbox"
        return f"sandbox {self.mode}, network {'on' if self.network else 'off'}"


def is_tighter_or_equal(value: SandboxMode, than: SandboxMode) -> bool:
    """Whether `value` confines commands at least as much as `than`."""
    return SANDBOX_MODES.index(value) <= SANDBOX_MODES.index(than)


def writable_paths(policy: SandboxPolicy, workspace: str, tmpdir: str | None) -> tuple[str, ...]:
    """Folders commands may write beneath, devices aside (none in `read-only` or `off`)."""
    if policy.mode != "workspace-write":
        return ()
    paths = [workspace, *TEMP_FOLDERS]
    if tmpdir:
        paths.append(tmpdir)
    paths.extend(policy.writable_roots)
    return tuple(dict.fromkeys(paths))


_WRITE_DENIALS = (
    "permission denied",
    "read-only file system",
    "device or resource busy",
    "operation not permitted",
    "eacces",
    "eperm",
    "erofs",
)
_NETWORK_DENIALS = (
    "network is unreachable",
    "temporary failure in name resolution",
    "could not resolve host",
    "name or service not known",
    "connection refused",
)


def denial_note(policy: SandboxPolicy, output: str, exit_code: int | None) -> str | None:
    """What to tell the model when a failed command's output looks like a sandbox denial, else None."""
    if not policy.active or exit_code in (None, 0):
        return None
    lowered = output.lower()
    markers = _WRITE_DENIALS if policy.network else _WRITE_DENIALS + _NETWORK_DENIALS
    if not any(marker in lowered for marker in markers):
        return None
    if policy.mode == "read-only":
        writes = "commands may not write anywhere (sandbox read-only)"
    else:
        writes = (
            "commands may write only in the workspace, /tmp, $TMPDIR and the configured writable roots; "
            ".git/hooks, .git/config, .vtcode/ and vtcode.toml are read-only"
        )
    network = "" if policy.network else "; the network is off (only the session's own loopback works)"
    # "Operation not permitted" is also what `kill` of a process an earlier command left running gets.
    signals = (
        "; a command can signal only processes it started itself (end a command session with write_stdin "
        "action kill; what an earlier command left running ends with vtcode)"
    )
    return (
        f"the OS sandbox probably blocked this: {writes}{network}{signals}. Do not try to work around it; "
        "if the task needs it, tell the user, who can allow it with [sandbox] writable_roots = [...], "
        "sandbox.network = true, or run vtcode with --sandbox off"
    )
