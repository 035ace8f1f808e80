"""The budget flags and `vtcode usage` appear alike in --help, the man page and the completions."""

from __future__ import annotations

import pytest
from tests.conftest import VtcodeRunner

FLAGS = ("--max-budget-usd", "--max-tokens-total")


def test_exec_help_and_top_help_name_the_budget_flags_and_the_usage_command(vtcode: VtcodeRunner) -> None:
    exec_help = vtcode.run("exec", "--help")
    top = vtcode.run("--help")
    assert exec_help.code == top.code == 0
    for flag in FLAGS:
        assert flag in exec_help.stdout
        assert flag in top.stdout
    assert "usage" in top.stdout.split("exit codes")[0]
    assert "its budget" in top.stdout
    usage_help = vtcode.run("usage", "--help")
    assert usage_help.code == 0
    for option in ("--session", "--json"):
        assert option in usage_help.stdout


def test_the_man_page_has_the_flags_the_command_and_the_exit_status(vtcode: VtcodeRunner) -> None:
    page = vtcode.run("man")
    assert page.code == 0
    text = page.stdout.replace("\\-", "-")
    for flag in (*FLAGS, "--session"):
        assert flag in text
    assert "tokens and cost of a stored session" in text
    assert "its budget (--max-budget-usd, --max-tokens-total)" in text


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completions_offer_the_flags_and_the_command(vtcode: VtcodeRunner, shell: str) -> None:
    result = vtcode.run("completions", shell)
    assert result.code == 0
    for word in (*FLAGS, "usage"):
        assert word in result.stdout
