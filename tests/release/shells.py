"""Load a completion file into a real bash, zsh or fish and ask what `vtcode <word><TAB>` completes to."""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import time
from pathlib import Path

import pytest

SHELLS = ("bash", "zsh", "fish")
_BOUND = 30.0  # seconds: a bound against a hung shell, not a timing assertion

_BASH = """
source "$1"
fn=$(complete -p vtcode | sed -E 's/.* -F ([^ ]+) .*/\\1/')
COMP_WORDS=(vtcode "$2"); COMP_CWORD=1; COMP_LINE="vtcode $2"; COMP_POINT=${#COMP_LINE}
"$fn" vtcode "$2" vtcode
printf '%s\\n' "${COMPREPLY[@]}"
"""

_ZSHRC = """
fpath=({compdir} $fpath)
autoload -Uz compinit && compinit -u -d {zdot}/.zcompdump
vtcode() {{ print -r -- "ARGS:$*" }}
PROMPT='READY> '
"""


def require(tool: str) -> None:
    """Skip the test when a shell or `man` is missing, or fail it where VTCODE_REQUIRE_SHELLS is set (CI)."""
    if shutil.which(tool) is not None:
        return
    if os.environ.get("VTCODE_REQUIRE_SHELLS"):
        pytest.fail(f"{tool} is not installed, and VTCODE_REQUIRE_SHELLS is set (.ci/run installs it)")
    pytest.skip(f"{tool} is not installed (.ci/run installs it)")


def completions(shell: str, script: Path, word: str, cwd: Path) -> list[str]:
    """The candidates the shell offers for `vtcode WORD<TAB>` after loading `script`."""
    if shell == "bash":
        proc = subprocess.run(
            ["bash", "--norc", "--noprofile", "-c", _BASH, "bash", str(script), word],
            capture_output=True,
            text=True,
            cwd=cwd,
            timeout=_BOUND,
            check=True,
        )
        return proc.stdout.split()
    if shell == "fish":
        proc = subprocess.run(
            ["fish", "--no-config", "-c", f"source {script}; complete -C 'vtcode {word}'"],
            capture_output=True,
            text=True,
            cwd=cwd,
            timeout=_BOUND,
            check=True,
        )
        return [line.split("\t", 1)[0] for line in proc.stdout.splitlines()]
    return _zsh_tab(script, word, cwd)


def _zsh_tab(script: Path, word: str, cwd: Path) -> list[str]:
    # zsh completes only inside its line editor, so drive an interactive zsh on a pseudo-terminal: type
    # `vtcode WORD<TAB>DONE<Enter>`; a `vtcode` function prints the arguments the edited line ended with.
    compdir, zdot = cwd / "zsh-completions", cwd / "zsh-home"
    compdir.mkdir()
    zdot.mkdir()
    shutil.copyfile(script, compdir / "_vtcode")
    (zdot / ".zshrc").write_text(_ZSHRC.format(compdir=compdir, zdot=zdot))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(zdot), "ZDOTDIR": str(zdot)}
    master, slave = os.openpty()
    proc = subprocess.Popen(
        ["zsh", "-i"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env={**env, "TERM": "xterm"},
        start_new_session=True,
    )
    os.close(slave)
    try:
        _read_until(master, rb"READY> ")
        os.write(master, f"vtcode {word}\t".encode())
        time.sleep(0.5)  # let the completion widget finish before more keys arrive
        os.write(master, b"DONE\r")
        screen = _read_until(master, rb"ARGS:[^\r\n]*[\r\n]").decode(errors="replace")
        os.write(master, b"exit\r")
    finally:
        try:
            proc.wait(timeout=_BOUND)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(master)
    match = re.search(r"ARGS:([^\r\n]*)", screen)
    assert match is not None, screen
    args = match.group(1).split()
    return args[:-1] if args[-1:] == ["DONE"] else args


def _read_until(fd: int, marker: bytes) -> bytes:
    seen = b""
    deadline = time.monotonic() + _BOUND
    while re.search(marker, seen) is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"the shell never printed {marker!r}; it printed {seen!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                raise AssertionError(f"the shell closed before printing {marker!r}; it printed {seen!r}")
            seen += chunk
    return seen
