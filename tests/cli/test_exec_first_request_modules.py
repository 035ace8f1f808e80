"""What `vtcode exec` has not loaded yet when its first request goes out (start-up time to first byte).

The TOML parser is not needed for `-c` options of the usual shapes nor without a config file; the usage
summary's text is needed once a turn ends. Both load later if at all (their tests cover that).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli.exec_probe import RUN_VTCODE, run_exec_probe

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
{RUN_VTCODE}
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
    stdout, seen = run_exec_probe(
        _PROBE, cwd=tmp_path, home=tmp_path / "home", args=["exec", *options, "hello"]
    )
    assert "hi there" in stdout
    assert seen == [[]]
