"""A seccomp filter for sandboxed commands, assembled as classic BPF through ctypes.

Always: `ioctl(TIOCSTI)` and `ioctl(TIOCLINUX)` fail, so a command cannot type into the terminal it
shares with the user's shell (what bubblewrap and Flatpak block the same way). Where the network must be
off and no private network namespace exists (no user namespaces), `socket()` fails for every family
(TCP, UDP, raw, netlink, Unix: named sockets cannot be hidden without a mount namespace) and so does
`io_uring_setup` (io_uring can open sockets without the `socket` syscall); `socketpair` stays allowed.

ctypes rather than a package: a dozen instructions, and libseccomp's Python binding is a compiled
extension. Only the native architecture is allowed (another one, such as 32-bit x86 on x86_64, has
other syscall numbers and is killed); the ioctl command is compared on its low 32 bits, the width the
kernel uses.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
import sys
from dataclasses import dataclass

_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2

_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_RET_ALLOW = 0x7FFF0000

# BPF opcodes: ld word absolute, jeq/jge with constant, ret constant.
_LD_ABS = 0x20
_JEQ = 0x15
_JGE = 0x35
_RET = 0x06

_OFFSET_NR = 0
_OFFSET_ARCH = 4
_OFFSET_ARG1_LOW = 24  # seccomp_data.args[1], low word (little-endian)

TIOCSTI = 0x5412
TIOCLINUX = 0x541C
_X32_BIT = 0x40000000


@dataclass(frozen=True)
class _Arch:
    audit: int
    ioctl: int
    socket: int
    io_uring_setup: int


_ARCHES = {
    "x86_64": _Arch(audit=0xC000003E, ioctl=16, socket=41, io_uring_setup=425),
    "aarch64": _Arch(audit=0xC00000B7, ioctl=29, socket=198, io_uring_setup=425),
}


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def supported() -> bool:
    """Whether a filter can be built for this machine."""
    return sys.platform.startswith("linux") and platform.machine() in _ARCHES


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def build(*, deny_sockets: bool) -> bytes:
    """The filter program's instructions (raises OSError on an unsupported machine)."""
    arch = _ARCHES.get(platform.machine())
    if arch is None:
        raise OSError(errno.ENOSYS, f"no seccomp filter for {platform.machine()}")
    tail = [
        _insn(_RET, _RET_ALLOW),
        _insn(_RET, _RET_ERRNO | errno.EPERM),
        _insn(_RET, _RET_ERRNO | errno.EACCES),
        _insn(_RET, _RET_ERRNO | errno.ENOSYS),
        _insn(_RET, _RET_KILL_PROCESS),
    ]
    body: list[tuple[int, int, str | int, str | int]] = [
        (_LD_ABS, _OFFSET_ARCH, 0, 0),
        (_JEQ, arch.audit, 0, "kill"),
        (_LD_ABS, _OFFSET_NR, 0, 0),
        (_JGE, _X32_BIT, "enosys", 0),
    ]
    if deny_sockets:
        body += [(_JEQ, arch.socket, "eacces", 0), (_JEQ, arch.io_uring_setup, "enosys", 0)]
    body += [
        (_JEQ, arch.ioctl, 0, "allow"),
        (_LD_ABS, _OFFSET_ARG1_LOW, 0, 0),
        (_JEQ, TIOCSTI, "eperm", 0),
        (_JEQ, TIOCLINUX, "eperm", "allow"),
    ]
    labels = {"allow": 0, "eperm": 1, "eacces": 2, "enosys": 3, "kill": 4}
    program = b""
    for index, (code, k, jt, jf) in enumerate(body):
        after = len(body) - index - 1  # instructions between this one and the tail

        def offset(target: str | int, after: int = after) -> int:
            return after + labels[target] if isinstance(target, str) else target

        program += _insn(code, k, offset(jt), offset(jf))
    return program + b"".join(tail)


class Filter:
    """A built filter, installed in a child between fork and exec without allocating."""

    def __init__(self, *, deny_sockets: bool) -> None:
        self.deny_sockets = deny_sockets
        code = build(deny_sockets=deny_sockets)
        self._buffer = ctypes.create_string_buffer(code, len(code))
        self._program = _Program(len(code) // 8, ctypes.cast(self._buffer, ctypes.c_void_p))
        self._libc = ctypes.CDLL(None, use_errno=True)

    def install(self) -> None:
        """Install on this process and everything it starts (child side)."""
        libc = self._libc
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"no_new_privs: {os.strerror(err)}")
        if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(self._program), 0, 0) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"seccomp: {os.strerror(err)}")
