"""A thread of its own in a network namespace: namespaces are per thread, so the rest of the process keeps
its network. `call_in_namespace` enters one (a new one, or an existing one by path), calls a function
there and hands its result, or what it raised, back to the caller's thread.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
_CLONE_NEWNET = 0x40000000


def unshare_network() -> None:
    """Move the calling thread into a new, empty network namespace."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(_CLONE_NEWNET) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"unshare(CLONE_NEWNET): {os.strerror(errno)}")


def join_network(path: str) -> None:
    """Move the calling thread into the network namespace at `path` (`/proc/PID/ns/net`)."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, _CLONE_NEWNET) != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"setns: {os.strerror(errno)}")
    finally:
        os.close(fd)


def call_in_namespace(enter: Callable[[], None], fn: Callable[[], T], *, name: str) -> T:
    """`enter()` then `fn()` on a new thread named `name`; `fn`'s result, or what either raised, here."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def body() -> None:
        try:
            enter()
            outcome.append(fn())
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)

    thread = threading.Thread(target=body, name=name)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]
