"""A directory swapped for a link while the file tools write, through the real CLI: nothing lands outside.

A background process (standing in for a sandboxed command left running) exchanges `sub/` with a
symbolic link to a folder outside the workspace as fast as it can (`renameat2(RENAME_EXCHANGE)`),
while the model asks vtcode to write `sub/authorized_keys` hundreds of times. As the current user and
again as a fresh unprivileged one (the `as_user` fixture), who owns the workspace, the outside folder
and the racer.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.unprivileged import Identity
from vtcode.testing.script import Reply, ScriptToolCall
from vtcode.testing.wire import cli_args, cli_env, server_for

WRITES = 240
BATCH = 40

# Exchanges `sub` and `swap` (a link to the outside folder) in a loop until killed; prints "ready" once
# the first exchange worked, or "unsupported" when the kernel or file system cannot exchange.
RACER = r"""
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
fn = getattr(libc, "renameat2", None)
os.chdir(sys.argv[1])
def swap():
    if fn is None or fn(AT_FDCWD, b"sub", AT_FDCWD, b"swap", RENAME_EXCHANGE) != 0:
        return False
    return True
if not swap():
    print("unsupported", flush=True)
    sys.exit(0)
print("ready", flush=True)
while True:
    swap()
"""


def _arguments(tool: str, key: str) -> str:
    if tool == "write_file":
        return json.dumps({"path": "sub/authorized_keys", "content": f"ssh-ed25519 AAAA attacker {key}\n"})
    # A new file per call (adding an existing one is refused), in the directory being swapped.
    patch = f"*** Begin Patch\n*** Add File: sub/keys-{key}\n+ssh-ed25519 AAAA attacker\n*** End Patch\n"
    return json.dumps({"patch": patch})


def _race_script(tool: str) -> list[Reply]:
    replies: list[Reply] = []
    for batch in range(WRITES // BATCH):
        calls = tuple(
            ScriptToolCall(tool, _arguments(tool, f"{batch}-{i}"), id=f"c{batch}-{i}") for i in range(BATCH)
        )
        replies.append(Reply(tool_calls=calls))
    replies.append(Reply(text="done"))
    return replies


@pytest.mark.parametrize("tool", ["write_file", "apply_patch"])
def test_a_directory_swapped_for_a_link_never_redirects_a_file_write(as_user: Identity, tool: str) -> None:
    tmp = as_user.tmpdir(parent="/tmp")
    workspace = tmp / "ws"
    outside = tmp / "outside"
    (workspace / "sub").mkdir(parents=True)
    outside.mkdir()
    (workspace / "swap").symlink_to(outside, target_is_directory=True)
    as_user.chown_tree(tmp)
    racer = as_user.popen([as_user.python, "-c", RACER, str(workspace)], stdout=subprocess.PIPE)
    try:
        assert racer.stdout is not None
        if racer.stdout.readline().strip() != "ready":
            pytest.skip("renameat2(RENAME_EXCHANGE) is not available on this kernel or file system")
        with server_for("chat", _race_script(tool)) as server:
            result = as_user.vtcode(
                "exec",
                "--json",
                *cli_args("chat"),
                "write the key",
                cwd=workspace,
                env=cli_env("chat", server),
                timeout=300,
            )
            messages = server.requests[-1].json()["messages"]
    finally:
        racer.kill()
        racer.wait()
    assert result.code == 0, result.stderr
    told = [m["content"] for m in messages if m["role"] == "tool"]
    assert len(told) == WRITES
    # Some writes got through between exchanges (so the race was real), and none of them escaped.
    assert any(text.startswith(("Created", "Updated", "Success")) for text in told), told[:3]
    assert sorted(p.name for p in outside.iterdir()) == []
    # The real `sub/` directory is wherever the exchange left it; what was written is in it.
    inside = [p for name in ("sub", "swap") if (p := workspace / name).is_dir() and not p.is_symlink()]
    assert len(inside) == 1
    assert all(p.name.startswith(("authorized_keys", "keys-")) for p in inside[0].iterdir())
