"""The host's named Unix sockets, which a command with the network off must not reach.

A private network namespace keeps TCP, UDP and abstract Unix sockets apart, but a named socket is a
file: a command could connect to the user's tmux server (`tmux -L NAME send-keys`), the D-Bus session
bus (`systemd-run --user`), docker.sock or ssh-agent and have them run code outside the sandbox. The
kernel lists every bound socket of vtcode's (the host's) network namespace in /proc/net/unix; each
command's mount namespace binds /dev/null over them, so a connect finds no socket there. Sockets the
session's own commands create live in its private network namespace and are not listed, so they keep
working; `[sandbox] allow_unix_sockets` names host sockets the user lets commands use.

The list is read as each command starts: a socket the host creates later stays reachable to commands
already running.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

_TABLE = "/proc/net/unix"


def _listed(table: str) -> list[str]:
    paths: list[str] = []
    for line in table.splitlines()[1:]:
        fields = line.split(maxsplit=7)
        if len(fields) == 8 and fields[7].startswith("/"):
            paths.append(fields[7])
    return paths


def host_sockets(*, allowed: Iterable[str] = (), table: str = _TABLE) -> tuple[str, ...]:
    """The named sockets bound on the host right now, minus `allowed`; [] when the table is unreadable."""
    try:
        with open(table, encoding="utf-8", errors="surrogateescape") as handle:
            text = handle.read()
    except OSError:
        return ()
    keep = {os.path.realpath(path) for path in allowed}
    found: dict[str, None] = {}
    for path in _listed(text):
        try:
            if not stat.S_ISSOCK(os.lstat(path).st_mode):
                continue
        except OSError:
            continue  # gone, or in a folder vtcode cannot see into (nor can a command)
        if path not in keep and os.path.realpath(path) not in keep:
            found[path] = None
    return tuple(found)
