"""Commands under the OS sandbox: what they may write, what they reach on the network, and the fallbacks."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.exec.sandbox_helpers import SandboxHarness, git_workspace, needs_landlock, needs_userns, policy

pytestmark = [needs_landlock]


def _denied(result: dict[str, object]) -> bool:
    return result["exit_code"] != 0 and "sandbox" in str(result.get("sandbox_note", ""))


@needs_userns
async def test_workspace_write_allows_the_workspace_and_tmp_and_denies_the_rest(
    tmp_path: Path, outside: Path
) -> None:
    ws = git_workspace(tmp_path / "ws")
    (ws / "link").symlink_to(outside)
    sandbox = SandboxHarness(ws, policy(), home=outside)
    try:
        inside = await sandbox.run("mkdir -p build && echo built > build/out.txt && cat build/out.txt")
        assert (inside["exit_code"], inside["output"].strip()) == (0, "built")
        scratch = await sandbox.run(f"echo t > {tmp_path}/scratch.txt && echo ok")
        assert (scratch["exit_code"], scratch["output"].strip()) == (0, "ok")
        attempts = {
            "outside": await sandbox.run(f"echo x > {outside}/x"),
            "etc": await sandbox.run("echo x > /etc/vtcode-sandbox-test"),
            "symlink": await sandbox.run("echo x > link/through-link"),
            "home": await sandbox.run("touch ~/nope"),
            "vtcode.toml": await sandbox.run("echo '[sandbox]' >> vtcode.toml"),
            "hooks": await sandbox.run("echo 'echo pwned' > .git/hooks/pre-commit"),
            "git config": await sandbox.run("echo '[core] hooksPath = /x' >> .git/config"),
            ".vtcode": await sandbox.run("echo x > .vtcode/planted"),
            "rename .git": await sandbox.run("mv .git .git-moved"),
            "setsid grandchild": await sandbox.run(
                f"setsid sh -c 'echo x > {outside}/grandchild'; sleep 0.2"
            ),
        }
    finally:
        await sandbox.aclose()
    assert {
        name: result["exit_code"] != 0 for name, result in attempts.items() if name != "setsid grandchild"
    } == {name: True for name in attempts if name != "setsid grandchild"}
    assert {name: _denied(result) for name, result in attempts.items() if name != "setsid grandchild"} == {
        name: True for name in attempts if name != "setsid grandchild"
    }
    assert os.listdir(outside) == []
    assert "vtcode-sandbox-test" not in os.listdir("/etc")
    assert (ws / "vtcode.toml").read_text() == "[agent]\n"
    assert list((ws / ".git" / "hooks").iterdir()) == []
    assert (ws / ".git" / "config").read_text() == "[core]\n\trepositoryformatversion = 0\n"
    assert not (ws / ".vtcode" / "planted").exists()
    assert (ws / ".git").is_dir()
    assert (ws / "build" / "out.txt").read_text() == "built\n"


@needs_userns
async def test_writable_roots_extend_the_workspace(tmp_path: Path, outside: Path) -> None:
    sandbox = SandboxHarness(git_workspace(tmp_path / "ws"), policy(roots=(str(outside),)), home=tmp_path)
    try:
        result = await sandbox.run(f"echo x > {outside}/allowed && echo ok")
    finally:
        await sandbox.aclose()
    assert (result["exit_code"], result["output"].strip()) == (0, "ok")
    assert (outside / "allowed").read_text() == "x\n"


async def test_read_only_mode_writes_nowhere_but_dev_null(tmp_path: Path) -> None:
    ws = git_workspace(tmp_path / "ws")
    sandbox = SandboxHarness(ws, policy("read-only"), home=tmp_path)
    try:
        devnull = await sandbox.run("echo x > /dev/null && cat vtcode.toml")
        workspace = await sandbox.run("echo x > new.txt")
        tmp = await sandbox.run(f"echo x > {tmp_path}/t.txt")
    finally:
        await sandbox.aclose()
    assert (devnull["exit_code"], devnull["output"].strip()) == (0, "[agent]")
    assert [workspace["exit_code"] != 0, tmp["exit_code"] != 0] == [True, True]
    assert not (ws / "new.txt").exists()
    assert not (tmp_path / "t.txt").exists()
    assert "may not write anywhere" in workspace["sandbox_note"]


@pytest.fixture
def host_server() -> Iterator[int]:
    """A TCP server on the host's 127.0.0.1 that answers every connection with `hello`."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(b"hello\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


_CONNECT = (
    "python3 -c 'import socket; print(socket.create_connection((\"127.0.0.1\", {port}), timeout=5).recv(9))'"
)


@needs_userns
async def test_network_off_cuts_the_host_but_commands_reach_each_other(
    tmp_path: Path, host_server: int
) -> None:
    sandbox = SandboxHarness(git_workspace(tmp_path / "ws"), policy(), home=tmp_path)
    try:
        host = await sandbox.run(_CONNECT.format(port=host_server))
        internet = await sandbox.run(
            "python3 -c 'import socket; socket.create_connection((\"192.0.2.1\", 80), timeout=5)'"
        )
        server = await sandbox.run(
            "python3 -u -m http.server 8765 --bind 127.0.0.1 > server.log 2>&1 &"
            " for i in $(seq 300); do grep -qs Serving server.log && break; sleep 0.1; done; echo started"
        )
        client = await sandbox.run(
            "python3 -c 'import urllib.request; print(urllib.request.urlopen(\"http://127.0.0.1:8765/\").status)'"
        )
    finally:
        await sandbox.aclose()
    assert host["exit_code"] != 0, host
    assert "Connection refused" in host["output"], host
    assert internet["exit_code"] != 0, internet
    assert "Network is unreachable" in internet["output"], internet
    assert "network is off" in internet["sandbox_note"], internet
    assert server["output"].strip() == "started", server
    assert (client["exit_code"], client["output"].strip()) == (0, "200"), client


@needs_userns
async def test_network_on_reaches_the_host(tmp_path: Path, host_server: int) -> None:
    sandbox = SandboxHarness(git_workspace(tmp_path / "ws"), policy(network=True), home=tmp_path)
    try:
        result = await sandbox.run(_CONNECT.format(port=host_server))
        write = await sandbox.run("echo x >> vtcode.toml")
    finally:
        await sandbox.aclose()
    assert (result["exit_code"], result["output"].strip()) == (0, "b'hello\\n'")
    assert write["exit_code"] != 0


@needs_userns
async def test_pty_sessions_and_stdin_work_under_the_sandbox(tmp_path: Path, outside: Path) -> None:
    sandbox = SandboxHarness(git_workspace(tmp_path / "ws"), policy(), home=tmp_path)
    try:
        started = await sandbox.run(
            "read line; echo got:$line; tty; echo x > /dev/tty", tty=True, yield_time_ms=300
        )
        assert started["is_exited"] is False
        finished = await sandbox.stdin(session_id=started["session_id"], chars="hi\n", yield_time_ms=20_000)
        denied = await sandbox.run(f"echo x > {outside}/pty", tty=True)
    finally:
        await sandbox.aclose()
    assert finished["exit_code"] == 0
    assert "got:hi" in finished["output"]
    assert "/dev/pts/" in finished["output"]
    assert denied["exit_code"] != 0
    assert os.listdir(outside) == []


async def test_without_landlock_confined_modes_refuse_and_name_the_way_out(tmp_path: Path) -> None:
    ws = git_workspace(tmp_path / "ws")
    refusing = SandboxHarness(ws, policy(), home=tmp_path, missing=frozenset({"landlock"}))
    running = SandboxHarness(ws, policy("off"), home=tmp_path, missing=frozenset({"landlock"}))
    try:
        refused = await refusing.run("echo x > ran.txt")
        ran = await running.run("echo x >> vtcode.toml && echo ok")
    finally:
        await refusing.aclose()
        await running.aclose()
    assert refused["success"] is False
    assert "no Landlock" in refused["error"]["message"]
    assert "--sandbox off" in refused["error"]["message"]
    assert (ran["exit_code"], ran["output"].strip()) == (0, "ok")
    assert (ws / "vtcode.toml").read_text() == "[agent]\nx\n"


@pytest.fixture
def host_udp_and_abstract() -> Iterator[tuple[socket.socket, socket.socket, str]]:
    """A UDP socket on the host's 127.0.0.1 and a listening abstract Unix socket, and the latter's name."""
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.settimeout(0.5)
    name = f"vtcode-test-{os.urandom(4).hex()}"
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind(f"\0{name}")
    abstract.listen()
    abstract.settimeout(0.5)
    yield udp, abstract, name
    udp.close()
    abstract.close()


_UDP_SEND = (
    "python3 -c 'import socket; "
    'socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"hi", ("127.0.0.1", {port}))\''
)
_ABSTRACT_CONNECT = (
    "python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); "
    's.connect("\\0{name}"); print("connected")\''
)


def _received(sock: socket.socket) -> bool:
    try:
        if sock.type == socket.SOCK_DGRAM:
            sock.recv(16)
        else:
            sock.accept()[0].close()
    except TimeoutError:
        return False
    return True


async def test_without_user_namespaces_network_off_holds_for_every_family_and_the_user_is_told(
    tmp_path: Path,
    outside: Path,
    host_server: int,
    host_udp_and_abstract: tuple[socket.socket, socket.socket, str],
) -> None:
    udp, abstract, name = host_udp_and_abstract
    ws = git_workspace(tmp_path / "ws")
    sandbox = SandboxHarness(ws, policy(), home=tmp_path, missing=frozenset({"userns"}))
    try:
        inside = await sandbox.run("echo x > ok.txt && echo ok")
        denied = await sandbox.run(f"echo x > {outside}/x")
        network = await sandbox.run(_CONNECT.format(port=host_server))
        datagram = await sandbox.run(_UDP_SEND.format(port=udp.getsockname()[1]))
        unix = await sandbox.run(_ABSTRACT_CONNECT.format(name=name))
    finally:
        await sandbox.aclose()
    assert inside["output"].strip() == "ok"
    assert denied["exit_code"] != 0
    assert [network["exit_code"] != 0, datagram["exit_code"] != 0, unix["exit_code"] != 0] == [True] * 3
    assert "connected" not in unix["output"]
    assert [_received(udp), _received(abstract)] == [False, False]
    assert len(sandbox.notices) == 1
    assert "does not allow user namespaces" in sandbox.notices[0]
    assert "are not read-only" in sandbox.notices[0]
    assert "refusing to create any socket (TCP, UDP, Unix" in sandbox.notices[0]
    assert "TCP connection" not in sandbox.notices[0]


@needs_userns
async def test_network_off_keeps_the_hosts_udp_and_abstract_sockets_out_but_the_sessions_in(
    tmp_path: Path, host_udp_and_abstract: tuple[socket.socket, socket.socket, str]
) -> None:
    udp, abstract, name = host_udp_and_abstract
    sandbox = SandboxHarness(git_workspace(tmp_path / "ws"), policy(), home=tmp_path)
    own = f"{name}-own"
    serve = (
        "python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); "
        f's.bind("\\0{own}"); s.listen(); print("listening", flush=True); s.accept()\' '
        "> serve.log 2>&1 & for i in $(seq 300); do grep -qs listening serve.log && break; sleep 0.1; done"
    )
    try:
        datagram = await sandbox.run(_UDP_SEND.format(port=udp.getsockname()[1]))
        unix = await sandbox.run(_ABSTRACT_CONNECT.format(name=name))
        await sandbox.run(serve)
        session = await sandbox.run(_ABSTRACT_CONNECT.format(name=own))
    finally:
        await sandbox.aclose()
    assert "connected" not in unix["output"], unix
    assert [_received(udp), _received(abstract)] == [False, False], datagram
    assert session["output"].strip() == "connected", session


@needs_userns
async def test_protected_paths_that_do_not_exist_yet_cannot_be_created(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    sandbox = SandboxHarness(ws, policy(), home=tmp_path)
    attempts = [
        "mkdir -p .git/hooks && echo 'echo pwned' > .git/hooks/pre-commit",
        "git init -q .",
        "echo '[agent]' > vtcode.toml",
        "mkdir -p .vtcode/prompts && echo pwned > .vtcode/prompts/system.md",
    ]
    try:
        results = [await sandbox.run(cmd) for cmd in attempts]
        allowed = await sandbox.run("echo ok > ok.txt && cat ok.txt")
    finally:
        await sandbox.aclose()
    assert [result["exit_code"] != 0 for result in results] == [True] * len(attempts), results
    assert allowed["output"].strip() == "ok"
    # The placeholders are gone again; only what vtcode itself keeps remains.
    assert sorted(path.name for path in ws.iterdir()) == [".vtcode", "ok.txt"]
    assert not (ws / ".vtcode" / "prompts").exists()
