"""Landlock through ctypes: the kernel's unprivileged file-system sandbox (Linux 5.13+).

The ruleset is built once in vtcode (opening the allowed folders, adding a rule for each) and only
enforced in each command's child between fork and exec, where `restrict_self` is two syscalls with
no allocation: the child runs as little Python as possible. Only write-like rights are "handled", so
reading and executing stay allowed everywhere and writing is allowed only beneath the rules' folders.
Rules bind to inodes, so a symlink in the workspace that points outside grants nothing.

ctypes rather than a package: the three syscalls and two structs fit in this file, and the maintained
Python bindings either wrap a compiled extension or a Rust crate (a build step on every platform).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass

# Same numbers on every Linux architecture (asm-generic table, Linux 5.13).
_SYS_CREATE_RULESET = 444
_SYS_ADD_RULE = 445
_SYS_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# Access rights (include/uapi/linux/landlock.h).
WRITE_FILE = 1 << 1
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2: linking or renaming into another folder
TRUNCATE = 1 << 14  # ABI 3

_WRITE_ABI1 = (
    WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO
) | (MAKE_BLOCK | MAKE_SYM)
_TCP = 0b11  # LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP
# ABI 6 scope: no signals to processes outside the command's own domain (bit 0 would scope abstract
# Unix sockets; the sandbox keeps those apart with a network namespace or seccomp instead).
SCOPE_SIGNAL = 2
# Rights that may appear in a rule on a file rather than a folder.
_FILE_RIGHTS = WRITE_FILE | TRUNCATE


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class LandlockError(OSError):
    """The ruleset could not be built or enforced."""


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_LIBC = _libc()


def abi_version() -> int:
    """The Landlock ABI the kernel offers; 0 when it has none (too old, disabled, or not Linux)."""
    if _LIBC is None:
        return 0
    version = int(_LIBC.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION))
    return max(version, 0)


def write_rights(abi: int) -> int:
    """Every write-like right this ABI knows: the ones a ruleset handles (denies unless granted)."""
    rights = _WRITE_ABI1
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    return rights


@dataclass(frozen=True)
class Grant:
    """Write access to `path` and everything beneath it (or to the file itself)."""

    path: str
    devices_only: bool = False


def build_ruleset(grants: Iterable[Grant], abi: int, *, deny_tcp: bool = False, scoped: int = 0) -> int:
    """A ruleset fd (close-on-exec) denying writes except beneath `grants`; missing paths are skipped.

    `deny_tcp` (ABI 4) also denies every TCP bind and connect: the network fallback without namespaces.
    `scoped` (ABI 6) are `SCOPE_*` bits: signals and abstract sockets stay within each command's domain.
    """
    if _LIBC is None or abi < 1:
        raise LandlockError(errno.ENOSYS, "Landlock is not available")
    handled = write_rights(abi)
    attr = _RulesetAttr(
        handled_access_fs=handled,
        handled_access_net=_TCP if deny_tcp and abi >= 4 else 0,
        scoped=scoped if abi >= 6 else 0,
    )
    fd = int(_LIBC.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0))
    if fd < 0:
        err = ctypes.get_errno()
        raise LandlockError(err, f"landlock_create_ruleset: {os.strerror(err)}")
    try:
        for grant in grants:
            _add_rule(fd, grant, handled)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _add_rule(ruleset: int, grant: Grant, handled: int) -> None:
    assert _LIBC is not None
    try:
        target = os.open(grant.path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a folder that does not exist cannot be written anyway
    try:
        is_dir = os.path.isdir(f"/proc/self/fd/{target}")
        rights = handled if is_dir and not grant.devices_only else handled & _FILE_RIGHTS
        rule = _PathBeneathAttr(allowed_access=rights, parent_fd=target)
        if _LIBC.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0) != 0:
            err = ctypes.get_errno()
            raise LandlockError(err, f"landlock_add_rule {grant.path}: {os.strerror(err)}")
    finally:
        os.close(target)


def restrict_self(ruleset: int) -> None:
    """Enforce `ruleset` on this process and every process it starts (run in the child before exec)."""
    assert _LIBC is not None
    if _LIBC.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise LandlockError(err, f"no_new_privs: {os.strerror(err)}")
    if _LIBC.syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
        err = ctypes.get_errno()
        raise LandlockError(err, f"landlock_restrict_self: {os.strerror(err)}")


def close_ruleset(ruleset: int | None) -> None:
    """Close a ruleset fd (idempotent on None)."""
    if ruleset is not None:
        with contextlib.suppress(OSError):
            os.close(ruleset)
