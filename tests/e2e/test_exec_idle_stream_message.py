"""A stream that goes silent is reported by how long nothing came and the setting that decides it."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import VtcodeRunner
from vtcode.testing.script import Reply
from vtcode.testing.wire import cli_args, cli_env, server_for

_IDLE = ["-c", "network.stream_idle_timeout_seconds=1", "-c", "network.max_retries=0"]


def test_a_silent_stream_names_the_idle_timeout_setting(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    # After two frames nothing at all arrives (the keep-alive comment would come only after a minute).
    script = [Reply(text="some text first", stall_after=2, keep_alive_every=60)]
    with server_for("chat", script) as server:
        result = vtcode.run(
            "exec", *_IDLE, *cli_args("chat"), "hi", cwd=tmp_path, env=cli_env("chat", server)
        )
    assert result.code == 4, result.stderr
    assert "timed out: nothing received for 1 s (network.stream_idle_timeout_seconds)" in result.stderr
    assert "ReadTimeout" not in result.stderr
    assert "Traceback" not in result.stderr
