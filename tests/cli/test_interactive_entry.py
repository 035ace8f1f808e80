"""Bare `vtcode [PROMPT]`: which words are a prompt, and what happens without a terminal."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from tests.conftest import VtcodeRunner

from vtcode.cli.interactive import split_prompt
from vtcode.cli.parser import build_parser


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], ([], None)),
        (["fix the tests"], ([], "fix the tests")),
        (["fix", "the", "tests"], ([], "fix the tests")),
        (["--model", "gpt-5", "fix it"], (["--model", "gpt-5"], "fix it")),
        (["-c", "agent.approval=ask", "hi"], (["-c", "agent.approval=ask"], "hi")),
        (["exec", "the tests"], (["exec", "the tests"], None)),
        (["--model", "exec", "sessions"], (["--model", "exec", "sessions"], None)),
        (["--", "exec the tests"], ([], "exec the tests")),
        (["--resume", "abc", "--", "sessions list"], (["--resume", "abc"], "sessions list")),
        (["--continue"], (["--continue"], None)),
    ],
)
def test_the_first_word_that_is_no_subcommand_starts_the_prompt(
    argv: list[str], expected: tuple[list[str], str | None]
) -> None:
    assert split_prompt(argv, build_parser()) == expected


def test_resume_and_continue_are_options_of_the_bare_command() -> None:
    args = build_parser().parse_args(["--resume", "abc"])
    assert (args.command, args.resume, args.continue_last) == (None, "abc", False)
    args = build_parser().parse_args(["--continue"])
    assert (args.command, args.resume, args.continue_last) == (None, None, True)


@pytest.mark.parametrize("args", [[], ["a prompt"], ["--continue"]])
def test_without_a_terminal_the_bare_command_says_to_use_exec(
    vtcode: VtcodeRunner, tmp_path: object, args: list[str]
) -> None:
    result = vtcode.run(*args, input="piped input\n", timeout=30)
    assert result.code == 2
    assert "needs a terminal" in result.stderr
    assert "vtcode exec PROMPT" in result.stderr
    assert "Traceback" not in result.stderr


def test_exec_never_imports_textual(vtcode: VtcodeRunner) -> None:
    from vtcode.testing.script import Reply
    from vtcode.testing.wire import server_for

    probe = (
        "import sys, runpy\n"
        "sys.argv = ['vtcode', 'exec', '--provider', 'openai', '--model', 'gpt-4.1', 'hi']\n"
        "try:\n"
        "    runpy.run_module('vtcode', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(__import__('json').dumps('textual' in sys.modules), file=sys.stderr)\n"
    )
    with server_for("chat", [Reply(text="hello")]) as server:
        env = vtcode.env({"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": server.base_url})
        proc = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=False, timeout=60
        )
    assert proc.stdout.strip() == "hello"
    assert json.loads(proc.stderr.strip().splitlines()[-1]) is False
