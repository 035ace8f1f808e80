"""A user config that cannot be written (`vtcode mcp add`) is a clear error, and nothing is left behind."""

from __future__ import annotations

import resource
import subprocess

from tests.conftest import VtcodeRunner


def _no_file_may_grow() -> None:
    # Root passes permission checks; the file size limit stops its writes too (Python ignores SIGXFSZ).
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_a_user_config_that_cannot_be_written_is_a_clear_error_naming_it(vtcode: VtcodeRunner) -> None:
    config = vtcode.home / ".vtcode" / "vtcode.toml"
    result = subprocess.run(
        vtcode.command("mcp", "add", "demo", "--", "echo", "hi"),
        env=vtcode.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=_no_file_may_grow,
    )
    assert result.returncode == 1
    assert result.stderr.startswith(f"vtcode: could not write {config}: file too large")
    assert "internal error" not in result.stderr
    assert "hint: raise the file size limit" in result.stderr
    assert list(config.parent.iterdir()) == []  # no config, no temporary file
