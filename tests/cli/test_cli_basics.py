"""The command line: version, help, exit codes for usage errors, docs, and a light start-up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.conftest import VtcodeRunner

from vtcode import __version__

HEAVY = ("httpx2", "vtcode.providers.openai_chat", "vtcode.providers.anthropic", "textual", "msgspec")


def test_version(vtcode: VtcodeRunner) -> None:
    result = vtcode.run("--version")
    assert (result.code, result.stdout.strip()) == (0, f"vtcode {__version__}")


def test_help_lists_commands_and_exit_codes(vtcode: VtcodeRunner) -> None:
    result = vtcode.run("--help")
    assert result.code == 0
    for word in ("exec", "sessions", "completions", "man", "exit codes", "-c KEY=VALUE"):
        assert word in result.stdout


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["exec", "--help"]])
def test_fast_paths_import_no_heavy_modules(args: list[str]) -> None:
    probe = (
        "import sys, runpy\n"
        f"sys.argv = ['vtcode', *{args!r}]\n"
        "try:\n"
        "    runpy.run_module('vtcode', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(__import__('json').dumps([m for m in {HEAVY!r} if m in sys.modules]), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert json.loads(proc.stderr.strip().splitlines()[-1]) == []


def test_exec_without_prompt_is_a_usage_error(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    result = vtcode.run("exec", cwd=tmp_path)
    assert result.code == 2
    assert "exec needs a PROMPT" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_provider_is_exit_2_listing_options(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    result = vtcode.run("exec", "hello", cwd=tmp_path)
    assert result.code == 2, result.stderr
    assert "no model provider is configured" in result.stderr
    for option in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "Ollama"):
        assert option in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_argument_is_exit_2(vtcode: VtcodeRunner) -> None:
    result = vtcode.run("exec", "--bogus", "x")
    assert result.code == 2
    assert "unrecognized arguments: --bogus" in result.stderr


def test_bad_config_value_is_exit_2_naming_the_key(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    result = vtcode.run("exec", "-c", "context.max_context_tokens=-5", "hi", cwd=tmp_path)
    assert result.code == 2
    assert "context.max_context_tokens" in result.stderr
    assert "Traceback" not in result.stderr


def test_config_option_before_and_after_the_subcommand(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    before = vtcode.run("-c", "agent.provder=x", "exec", "hi", cwd=tmp_path)
    after = vtcode.run("exec", "-c", "agent.provder=x", "hi", cwd=tmp_path)
    for result in (before, after):
        assert result.code == 2
        assert "did you mean agent.provider" in result.stderr


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completions_mention_subcommands(vtcode: VtcodeRunner, shell: str) -> None:
    result = vtcode.run("completions", shell)
    assert result.code == 0
    assert "exec" in result.stdout
    assert "sessions" in result.stdout


def test_man_page_is_roff_with_every_command(vtcode: VtcodeRunner) -> None:
    result = vtcode.run("man")
    assert result.code == 0
    assert result.stdout.startswith(".TH VTCODE")
    for word in ("exec", "sessions", "completions"):
        assert word in result.stdout


def test_bare_vtcode_explains_itself(vtcode: VtcodeRunner, tmp_path: Path) -> None:
    result = vtcode.run(cwd=tmp_path)
    assert result.code == 2
    assert "vtcode exec PROMPT" in result.stderr
