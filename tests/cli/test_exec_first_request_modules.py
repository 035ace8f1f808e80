"""What `vtcode exec` has not loaded yet when its first request goes out (start-up time to first byte).

The TOML parser is not needed for `-c` options of the usual shapes nor without a config file; the usage
summary's text is needed once a turn ends. Both load later if at all (their tests cover that).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply

NOT_BEFORE_THE_FIRST_REQUEST = ("tomllib", "vtcode.core.usage_text")

# Notes the modules at the first connection to the loopback server, then lets the run go on.
_PROBE = f"""
import json, socket, sys, runpy
connect = socket.socket.connect
seen = []
def first(self, address):
    if not seen and isinstance(address, tuple) and address[0] == "127.0.0.1":
        seen.append([m for m in {NOT_BEFORE_THE_FIRST_REQUEST!r} if m in sys.modules])
    return connect(self, address)
socket.socket.connect = first
sys.argv = ["vtcode", *sys.argv[1:]]
try:
    runpy.run_module("vtcode", run_name="__main__")
except SystemExit as exit:
    print("exit", exit.code, file=sys.stderr)
print(json.dumps(seen), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "options",
    [
        ["-c", "network.max_retries=0", "-c", "agent.approval=read-only"],
        ["--output-format", "json", "-c", "agent.max_turns=5"],
    ],
)
def test_the_first_request_goes_out_before_the_toml_parser_and_the_usage_text_load(
    tmp_path: Path, options: list[str]
) -> None:
    home = tmp_path / "home"
    with OpenAIChatServer([Reply(text="hi there")]) as server:
        env = dict(
            os.environ,
            HOME=str(home),
            VTCODE_HOME=str(home / ".vtcode"),
            OPENAI_API_KEY="sk-test",
            OPENAI_BASE_URL=server.base_url,
        )
        proc = subprocess.run(
            [sys.executable, "-c", _PROBE, "exec", *options, "hello"],
            capture_output=True, text=True, check=False, cwd=tmp_path, env=env, timeout=120,
        )  # fmt: skip
        assert len(server.requests) == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert "hi there" in proc.stdout, proc.stderr
    assert lines[-2] == "exit 0", proc.stderr
    assert json.loads(lines[-1]) == [[]]
