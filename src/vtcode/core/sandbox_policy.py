"""The OS sandbox policy for commands: what a command may write and whether it reaches the network.

| mode              | writes allowed                                                               |
| ----------------- | ---------------------------------------------------------------------------- |
| `read-only`       | nowhere but `/dev/null`-class devices                                        |
| `workspace-write` | the workspace (minus the protected paths), `/tmp`, `$TMPDIR`, writable roots |
| `off`             | whatever the user may write (no sandbox)                                     |

Reading and running programs stay allowed everywhere. The protected paths are inside the writable
workspace but read-only for commands, since git (or vtcode itself) later runs what they hold outside
the sandbox: all of `.git` (a folder, or the `gitdir:` file of a worktree) because git reads its
configuration and hooks there, vtcode's own configuration, and the MCP servers a project defines. The
user's configuration outside the workspace (`$VTCODE_HOME`, git's global files) is protected the same
way, for when it lies under a writable folder (a HOME or VTCODE_HOME under /tmp, as in CI).
"""

from __future__ import annotations

import re
from typing import Literal

import msgspec

SandboxMode = Literal["read-only", "workspace-write", "off"]
SANDBOX_MODES: tuple[SandboxMode, ...] = ("read-only", "workspace-write", "off")
"""Strictest first, as the config trust rule compares them."""

PROTECTED_PATHS: tuple[str, ...] = (".git", ".vtcode", "vtcode.toml", ".mcp.json")
"""Workspace paths commands may read but never change (relative to the workspace)."""

PROTECTED_SHOWN = ".git, .vtcode/, vtcode.toml and .mcp.json"
"""The protected paths as notices and denial notes name them."""

VTCODE_HOME_PROTECTED: tuple[str, ...] = (
    "vtcode.toml",
    "prompts",
    "rules",
    "AGENTS.md",
    "AGENTS.override.md",
)
"""What of `$VTCODE_HOME` commands may never change: what vtcode reads as configuration or prompt."""

USER_HOME_PROTECTED: tuple[str, ...] = (".gitconfig", ".config/git", ".config/vtcode")
"""What of the user's home commands may never change: git's global configuration, vtcode's config root."""

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


class SandboxPolicy(msgspec.Struct, frozen=True):
    """`[sandbox]` after layering: the mode, the network switch and extra writable folders."""

    mode: SandboxMode = "off"
    network: bool = True
    writable_roots: tuple[str, ...] = ()
    # Absolute paths outside the workspace kept read-only like PROTECTED_PATHS (the user's config).
    protected_extra: tuple[str, ...] = ()
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


def user_config_paths(vtcode_home: str | None, user_home: str | None) -> tuple[str, ...]:
    """The user's configuration files and folders commands may never change (absolute paths).

    `$VTCODE_HOME` as a whole (a file not there yet cannot be created in it either), and its
    configuration entries one by one for when it holds the workspace and cannot be read-only whole.
    """
    paths = []
    if vtcode_home:
        paths = [vtcode_home, *(f"{vtcode_home.rstrip('/')}/{name}" for name in VTCODE_HOME_PROTECTED)]
    if user_home:
        paths += [f"{user_home.rstrip('/')}/{name}" for name in USER_HOME_PROTECTED]
    return tuple(paths)


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

# A script that goes on after a blocked write (`echo x > /etc/f; echo done`) exits 0, yet the model must
# hear why the file is missing. With exit 0 only a tool's error line counts ("sh: 1: cannot create
# /etc/f: Permission denied", "PermissionError: [Errno 13] Permission denied: '/etc/f'"), so a program
# that merely prints the words in a sentence (grep, a log) does not earn the note.
_ERROR_LINE_DENIAL = re.compile(
    r"(?:: |\] )(?:permission denied|read-only file system|operation not permitted)(?::|\s*$)", re.MULTILINE
)


def denial_note(policy: SandboxPolicy, output: str, exit_code: int | None) -> str | None:
    """What to tell the model when a command's output looks like a sandbox denial, else None."""
    if not policy.active or exit_code is None:
        return None
    lowered = output.lower()
    if exit_code == 0:
        if _ERROR_LINE_DENIAL.search(lowered) is None:
            return None
    else:
        markers = _WRITE_DENIALS if policy.network else _WRITE_DENIALS + _NETWORK_DENIALS
        if not any(marker in lowered for marker in markers):
            return None
    if policy.mode == "read-only":
        writes = "commands may not write anywhere (sandbox read-only)"
    else:
        writes = (
            "commands may write only in the workspace, /tmp, $TMPDIR and the configured writable roots; "
            f"{PROTECTED_SHOWN} are read-only"
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
