"""`vtcode exec` starts light: only what its provider and front end need is imported or built."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vtcode.cli.parser import build_parser
from vtcode.testing.openai_chat_server import OpenAIChatServer
from vtcode.testing.script import Reply

# Each costs start-up time and none is needed to talk to an http:// endpoint without a proxy: the
# httpx2 stack (with importlib.metadata's scans), the token encoder (needed once the history is large),
# the TUI, the MCP SDK and the ACP SDK. (h11 is: the plain-http client leaves HTTP/1.1 framing to it.)
NOT_ON_THE_EXEC_PATH = (
    "httpx2",
    "httpcore2",
    "anyio",
    "importlib.metadata",
    "tiktoken",
    "textual",
    "rich",
    "mcp",
    "acp",
    "vtcode.tui",
    "vtcode.providers.tls",
)


def _run_exec_probe(probe: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `probe` (which runs `vtcode exec hello`) against a loopback server that answers "hi there"."""
    with OpenAIChatServer([Reply(text="hi there")]) as server:
        env = dict(os.environ, OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=server.base_url)
        proc = subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            check=False,
            cwd=cwd,
            env=env,
            timeout=60,
        )
        assert len(server.requests) == 1, proc.stderr
    return proc


def test_exec_on_a_plain_http_endpoint_imports_no_heavy_modules(tmp_path: Path) -> None:
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['vtcode', 'exec', 'hello']\n"
        "try:\n"
        "    runpy.run_module('vtcode', run_name='__main__')\n"
        "except SystemExit as exit:\n"
        "    print('exit', exit.code, file=sys.stderr)\n"
        f"print(__import__('json').dumps([m for m in {NOT_ON_THE_EXEC_PATH!r} if m in sys.modules]), "
        "file=sys.stderr)\n"
    )
    proc = _run_exec_probe(probe, tmp_path)
    lines = proc.stderr.strip().splitlines()
    assert proc.stdout.strip() == "hi there", proc.stderr
    assert lines[-2] == "exit 0", proc.stderr
    assert json.loads(lines[-1]) == []


def test_exec_runs_with_start_up_objects_frozen_and_the_usual_collection(tmp_path: Path) -> None:
    # Start-up collects rarely and then freezes what it made; the session itself must run (and end)
    # with the usual thresholds, or a long one would collect too seldom.
    probe = (
        "import gc, sys, runpy\n"
        "usual = gc.get_threshold()\n"
        "sys.argv = ['vtcode', 'exec', 'hello']\n"
        "try:\n"
        "    runpy.run_module('vtcode', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "frozen = gc.get_freeze_count() > 10_000\n"
        "print(gc.isenabled(), gc.get_threshold() == usual, frozen, file=sys.stderr)\n"
    )
    proc = _run_exec_probe(probe, tmp_path)
    assert proc.stdout.strip() == "hi there", proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "True True True", proc.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["exec", "hello"],
        ["exec", "-c", "network.max_retries=0", "fix", "the", "tests"],
        ["exec", "--json", "--model", "m", "--provider", "openai", "--approval", "ask", "-"],
        ["exec", "--resume", "abc", "--sandbox", "off", "--max-turns", "3", "go"],
        ["exec", "--json-deltas", "--trust-project-mcp", "--profile", "minimal", "x"],
    ],
)
def test_the_exec_only_parser_reads_exec_lines_like_the_whole_tree(argv: list[str]) -> None:
    assert build_parser(exec_only=True).parse_args(argv) == build_parser().parse_args(argv)


def test_the_exec_only_parser_reports_bad_lines_like_the_whole_tree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    messages = []
    for parser in (build_parser(exec_only=True), build_parser()):
        with pytest.raises(SystemExit):
            parser.parse_args(["exec", "--bogus", "x"])
        messages.append(capsys.readouterr().err)
    assert messages[0] == messages[1]
    assert "unrecognized arguments: --bogus" in messages[0]
