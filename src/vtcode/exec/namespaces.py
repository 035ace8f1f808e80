"""Linux namespaces for sandboxed commands: a private network, and a read-only view of the system.

All commands of one vtcode session share one user namespace (and, with the network off, one network
namespace with its own loopback), held open by a small holder process: a server started by one command
is reachable from the next, nothing reaches the host's network, and the host cannot reach it. Each
command then gets its own mount namespace in which every mount is read-only except clones of the
writable roots (so chmod, chown, utime and xattrs fail outside them: Landlock does not handle those),
and the protected paths of the workspace are bind mounts onto themselves, remounted read-only
(Landlock can only grant, so these carve-outs need mounts). Host Unix sockets may be masked by
binding /dev/null over them. Entering the user namespace drops every capability in the host's
namespaces, also for root, so a command cannot `setns` back to the host network or undo the mounts
of the host's namespace.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
import socket
import struct
import subprocess
import sys
from dataclasses import dataclass

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000

_MS_RDONLY = 1
_MS_NOSUID = 2
_MS_NOEXEC = 8
_MS_REMOUNT = 32
_MS_BIND = 4096
_MS_REC = 16384
_MS_PRIVATE = 1 << 18
# statvfs flags that are locked in a user namespace and must be kept on remount, as MS_* bits.
_LOCKED_FLAGS = {2: 2, 4: 4, 8: 8, 1024: 1024, 2048: 2048, 4096: 1 << 21}

# The new mount API (Linux 5.2, mount_setattr 5.12): the same numbers on every architecture.
_SYS_OPEN_TREE = 428
_SYS_MOVE_MOUNT = 429
_SYS_MOUNT_SETATTR = 442
_AT_FDCWD = -100
_AT_RECURSIVE = 0x8000
_OPEN_TREE_CLONE = 1
_OPEN_TREE_CLOEXEC = 0o2000000
_MOVE_MOUNT_F_EMPTY_PATH = 0x4
_MOUNT_ATTR_RDONLY = 1

_SIOCGIFFLAGS = 0x8913
_SIOCSIFFLAGS = 0x8914
_IFF_UP = 0x1

_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def unshare(flags: int) -> None:
    """unshare(2)."""
    assert _LIBC is not None
    _check(_LIBC.unshare(flags), "unshare")


def setns(fd: int, nstype: int) -> None:
    """setns(2)."""
    assert _LIBC is not None
    _check(_LIBC.setns(fd, nstype), "setns")


def _mount(
    source: str | None, target: str, flags: int, fstype: str | None = None, data: str | None = None
) -> None:
    assert _LIBC is not None
    src = source.encode() if source is not None else None
    kind = fstype.encode() if fstype is not None else None
    options = data.encode() if data is not None else None
    _check(_LIBC.mount(src, target.encode(), kind, ctypes.c_ulong(flags), options), f"mount {target}")


def _private_devpts() -> None:
    # A devpts instance of the session's own: commands open and create terminals there and never see
    # the user's other terminals in the host's /dev/pts.
    try:
        _mount("devpts", "/dev/pts", _MS_NOSUID | _MS_NOEXEC, "devpts", "newinstance,ptmxmode=0666,mode=0620")
        _mount("/dev/pts/ptmx", "/dev/ptmx", _MS_BIND)
    except OSError:
        return  # no /dev/pts to mount over (an unusual container): the host's stays, as the notice says


@dataclass(frozen=True)
class ProtectedPath:
    """A path kept read-only (`read_only`), or only pinned so it cannot be renamed or replaced."""

    path: str
    read_only: bool
    locked_flags: int


def protected_path(path: str, *, read_only: bool) -> ProtectedPath:
    """Describe `path` for `make_read_only`, keeping the mount flags a user namespace must not drop."""
    flags = os.statvfs(path).f_flag
    locked = 0
    for st_flag, ms_flag in _LOCKED_FLAGS.items():
        if flags & st_flag:
            locked |= ms_flag
    return ProtectedPath(path=path, read_only=read_only, locked_flags=locked)


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


@dataclass(frozen=True)
class MountPlan:
    """What one command's mount namespace looks like; built before the fork, applied in the child.

    `writable` are the folders that keep their write access (parents first); every other mount is
    read-only. `protected` are carved out of them again. `masked` are host sockets hidden under
    /dev/null (missing ones are skipped).
    """

    writable: tuple[str, ...]
    protected: tuple[ProtectedPath, ...] = ()
    masked: tuple[str, ...] = ()
    read_only_root: bool = True


def _syscall(number: int, *args: object) -> int:
    assert _LIBC is not None
    result = int(_LIBC.syscall(number, *args))
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"syscall {number}: {os.strerror(err)}")
    return result


def apply_mount_plan(plan: MountPlan) -> None:
    """In a fresh mount namespace: make it read-only but for the writable roots, then the carve-outs."""
    _mount(None, "/", _MS_REC | _MS_PRIVATE)
    if plan.read_only_root:
        # Clone each writable tree before the whole tree turns read-only, then put the clones back.
        clones = [
            (
                _syscall(
                    _SYS_OPEN_TREE,
                    _AT_FDCWD,
                    path.encode(),
                    ctypes.c_uint(_OPEN_TREE_CLONE | _OPEN_TREE_CLOEXEC | _AT_RECURSIVE),
                ),
                path,
            )
            for path in plan.writable
        ]
        attr = _MountAttr(attr_set=_MOUNT_ATTR_RDONLY)
        _syscall(
            _SYS_MOUNT_SETATTR,
            _AT_FDCWD,
            b"/",
            ctypes.c_uint(_AT_RECURSIVE),
            ctypes.byref(attr),
            ctypes.c_size_t(ctypes.sizeof(attr)),
        )
        for fd, path in clones:
            _syscall(
                _SYS_MOVE_MOUNT, fd, b"", _AT_FDCWD, path.encode(), ctypes.c_uint(_MOVE_MOUNT_F_EMPTY_PATH)
            )
            os.close(fd)
    for item in plan.protected:
        _mount(item.path, item.path, _MS_BIND)
        if item.read_only:
            _mount(None, item.path, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | item.locked_flags)
    for path in plan.masked:
        try:
            _mount("/dev/null", path, _MS_BIND)
        except OSError:
            continue  # the socket went away since it was listed


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock.fileno(), _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock.fileno(), _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))


# Run by the holder inside the namespaces: wait for end of file, then end the namespace's processes
# (a few rounds, as one may fork while the others are killed).
_HOLDER_CODE = """
import os
while os.read(0, 4096):
    pass
me = os.stat("/proc/self/ns/user")
for _ in range(5):
    found = False
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            ns = os.stat("/proc/%s/ns/user" % name)
            if (ns.st_dev, ns.st_ino) == (me.st_dev, me.st_ino):
                os.kill(int(name), 9)
                found = True
        except OSError:
            pass
    if not found:
        break
"""


def _end_processes_in(user_ns: int, *, spare: int) -> None:
    """SIGKILL every process in the user namespace `user_ns` (an fd) but `spare` (the holder's own sweep,
    done by vtcode: a frozen build's holder cannot run it)."""
    me = os.fstat(user_ns)
    for _ in range(5):
        found = False
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == spare:
                continue
            try:
                ns = os.stat(f"/proc/{name}/ns/user")
                if (ns.st_dev, ns.st_ino) == (me.st_dev, me.st_ino):
                    os.kill(int(name), signal.SIGKILL)
                    found = True
            except OSError:
                continue
        if not found:
            return


def _holder_argv() -> list[str]:
    if sys.executable and not getattr(sys, "frozen", False):
        return [sys.executable, "-I", "-S", "-c", _HOLDER_CODE]
    return [next((p for p in ("/usr/bin/cat", "/bin/cat") if os.access(p, os.X_OK)), "cat")]


class NamespaceHolder:
    """A process that keeps the session's user (and network) namespace alive while vtcode runs.

    It reads a pipe only vtcode holds: when vtcode ends, however it ends (kill -9 too), the pipe closes
    and the holder kills every process left in the session's user namespace before it exits, so a
    daemon that called `setsid` and cleared its environment (out of reach of the process-group and
    marker sweeps) does not outlive vtcode. No command can leave that namespace. vtcode sweeps the same
    way when it closes the sandbox; a frozen build has no interpreter to run the holder with and falls
    back to `cat`, so there only that sweep of a normal exit remains.
    """

    def __init__(self, *, private_network: bool) -> None:
        uid, gid = os.getuid(), os.getgid()
        flags = CLONE_NEWUSER | CLONE_NEWNS | (CLONE_NEWNET if private_network else 0)

        def enter() -> None:  # runs in the holder's child between fork and exec
            unshare(flags)
            _write("/proc/self/setgroups", "deny")
            _write("/proc/self/uid_map", f"{uid} {uid} 1")
            _write("/proc/self/gid_map", f"{gid} {gid} 1")
            if private_network:
                _loopback_up()
            _private_devpts()

        argv = _holder_argv()
        read_end, self._write_end = os.pipe2(os.O_CLOEXEC)
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=enter,  # noqa: PLW1509 - the child only makes syscalls
                start_new_session=True,
            )
        except BaseException:
            os.close(self._write_end)
            raise
        finally:
            os.close(read_end)
        pid = self.process.pid
        try:
            self.user_fd = os.open(f"/proc/{pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
            self.mnt_fd = os.open(f"/proc/{pid}/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
            self.net_fd = (
                os.open(f"/proc/{pid}/ns/net", os.O_RDONLY | os.O_CLOEXEC) if private_network else None
            )
        except OSError:
            self.close()
            raise

    @property
    def root(self) -> str:
        """The file system as the session's namespace sees it (its own /dev/pts), from vtcode."""
        return f"/proc/{self.process.pid}/root"

    def private_pts(self) -> bool:
        """Whether the session has a /dev/pts of its own (and a /dev/ptmx that opens there)."""
        try:
            return os.stat(f"{self.root}/dev/ptmx").st_dev != os.stat("/dev/ptmx").st_dev
        except OSError:
            return False

    def enter(self) -> None:
        """Join the holder's namespaces, then take a private mount namespace (child side)."""
        setns(self.user_fd, CLONE_NEWUSER)
        if self.net_fd is not None:
            setns(self.net_fd, CLONE_NEWNET)
        setns(self.mnt_fd, CLONE_NEWNS)
        unshare(CLONE_NEWNS)

    def close(self) -> None:
        """End every process left in the session's namespaces, then the holder."""
        if getattr(self, "user_fd", None) is not None:
            _end_processes_in(self.user_fd, spare=self.process.pid)
        for name in ("user_fd", "net_fd", "mnt_fd"):
            fd = getattr(self, name, None)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)
        if self._write_end >= 0:
            os.close(self._write_end)
            self._write_end = -1
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def user_namespaces_work() -> bool:
    """Whether an unprivileged user namespace can be made here (a short-lived probe process)."""
    if _LIBC is None:
        return False
    try:
        holder = NamespaceHolder(private_network=True)
    except (OSError, subprocess.SubprocessError):
        return False
    holder.close()
    return True
