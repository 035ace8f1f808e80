"""An answer the model gave is printed even when it cannot be saved (a full disk): `vtcode exec` still
prints it on stdout, and the error that kept it from the session follows on stderr."""

from __future__ import annotations

import resource
import subprocess
from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

# The prompt's checkpoint fits; the answer's does not (root passes permission checks, so a file size
# limit stands in for a full disk; Python ignores SIGXFSZ, so the write fails with EFBIG).
_FILE_LIMIT = 16 * 1024
_ANSWER = " ".join(f"word{i}" for i in range(6_000))


def _small_files() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (_FILE_LIMIT, _FILE_LIMIT))


def test_an_answer_that_cannot_be_saved_is_still_printed(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    assert len(_ANSWER) > 2 * _FILE_LIMIT
    with server_for("chat", [Reply(text=_ANSWER)]) as server:
        done = subprocess.run(
            vtcode.command("exec", *cli_args("chat"), "write a long answer"),
            cwd=tmp_path, env=vtcode.env(cli_env("chat", server)), capture_output=True, text=True,
            timeout=120, check=False, preexec_fn=_small_files,
        )  # fmt: skip
        requests = len(server.requests)
    assert requests == 1
    assert done.returncode != 0
    assert "file too large" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == _ANSWER + "\n"
