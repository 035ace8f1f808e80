"""Claude Code's matcher tiers over vtcode and Claude tool names (reference extensibility.md 1.7)."""

from __future__ import annotations

import pytest

from vtcode.core.hooks.matching import matcher_error, matches, select, tool_names
from vtcode.core.hooks.model import ConfiguredHook, HookHandler, HookSet, HookSource


@pytest.mark.parametrize(
    ("matcher", "tool", "expected"),
    [
        ("Edit", "apply_patch", True),
        ("Edit", "NotebookEdit", False),
        ("Edit.*", "apply_patch", True),
        ("Edit.*", "NotebookEdit", True),
        ("mcp__fs", "mcp__fs__read", False),
        ("mcp__fs__.*", "mcp__fs__read", True),
        ("Bash", "exec_command", True),
        ("exec_command", "exec_command", True),
        ("Edit|Write", "write_file", True),
        ("Edit, Write", "apply_patch", True),
        ("Read", "read_file", True),
        ("Grep", "grep_files", True),
        ("Glob", "list_files", True),
        ("LS", "list_files", True),
        ("Bash", "read_file", False),
        ("*", "anything", True),
        ("", "anything", True),
        ("^read_", "read_file", True),
    ],
)
def test_a_matcher_tier_selects_the_tools_claude_code_would(matcher: str, tool: str, expected: bool) -> None:
    assert matches(matcher, tool_names(tool)) is expected


def test_an_invalid_regex_is_reported_and_a_name_list_is_not_a_regex() -> None:
    assert matcher_error("Edit(") is not None
    assert matcher_error("Edit|Write") is None
    assert matcher_error("mcp__fs__.*") is None


def test_identical_handlers_from_two_files_are_selected_once() -> None:
    handler = HookHandler(command="./check.sh")
    user = HookSource("user", "/home/u/.vtcode/vtcode.toml")
    workspace = HookSource("workspace", "/ws/.vtcode/hooks.json")
    hooks = HookSet(
        (
            ConfiguredHook("PreToolUse", "Bash", handler, user),
            ConfiguredHook("PreToolUse", "exec_command", handler, workspace),
            ConfiguredHook("PreToolUse", "Bash", HookHandler(command="./other.sh"), user),
        )
    )
    chosen = select(hooks, "PreToolUse", tool_names("exec_command"))
    assert [(h.handler.command, h.source.kind) for h in chosen] == [
        ("./check.sh", "user"),
        ("./other.sh", "user"),
    ]


def test_untrusted_hooks_are_never_selected() -> None:
    hook = ConfiguredHook(
        "PreToolUse",
        "",
        HookHandler(command="x"),
        HookSource("workspace", "/ws/a"),
        digest="d",
        trusted=False,
    )
    assert select(HookSet((hook,)), "PreToolUse", ("exec_command",)) == ()
