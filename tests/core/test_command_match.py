"""Command lines against allow and deny rules: prefixes, globs, compound commands, substitutions."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from vtcode.core.approvals import ApprovalMode, ApprovalPolicy, decide
from vtcode.core.command_match import (
    AllowMatch,
    SimpleCommand,
    match_allow,
    match_deny,
    split_command,
)


@pytest.mark.parametrize(
    ("line", "commands"),
    [
        ("git status -s", [("git", "status", "-s")]),
        ("a; b && c || d | e & f |& g", [("a",), ("b",), ("c",), ("d",), ("e",), ("f",), ("g",)]),
        ("a\nb", [("a",), ("b",)]),
        ("(a; b)", [("a",), ("b",)]),
        ("echo $(rm x) `ls -l`", [("echo", "\x00", "\x00"), ("rm", "x"), ("ls", "-l")]),
        ('echo "v=$(date)"', [("echo", "v=\x00"), ("date",)]),
        ("diff <(ls a) >(cat)", [("diff", "\x00", "\x00"), ("ls", "a"), ("cat",)]),
        ("echo $(echo $(id))", [("echo", "\x00"), ("echo", "\x00"), ("id",)]),
        ("echo '$(rm x); y'", [("echo", "$(rm x); y")]),
        ('echo "a;b" ";" \\&\\&', [("echo", "a;b", ";", "&&")]),
        ('echo "$(printf ")")"', [("echo", "\x00"), ("printf", ")")]),
        ("git \\\nstatus", [("git", "status")]),
        ("cargo test 2>&1 | tee log", [("cargo", "test", "2"), ("tee", "log")]),
        ("a ;; ; b", [("a",), ("b",)]),
        ("", []),
    ],
)
def test_split_command(line: str, commands: list[tuple[str, ...]]) -> None:
    assert split_command(line) == tuple(SimpleCommand(words) for words in commands)


@pytest.mark.parametrize(
    "line",
    ['echo "open', "echo 'open", "echo $(open", "echo `open", "cat <<EOF\nhi\nEOF", "ls >", "a\\"],
)
def test_unparsable_lines(line: str) -> None:
    assert split_command(line) is None


@pytest.mark.parametrize(
    ("line", "writes"),
    [
        ("cargo test > out.txt", True),
        ("cargo test >> out.txt", True),
        ("cargo test &> out.txt", True),
        ("cargo test >& out.txt", True),
        ("cargo test > /dev/null 2>&1", False),
        ("cargo test 2>&-", False),
        ("sort < input.txt", False),
        ("cat <<< hello", False),
    ],
)
def test_redirections(line: str, writes: bool) -> None:
    commands = split_command(line)

    assert commands is not None
    assert commands[0].writes_files is writes


ALLOW = ("git status", "git diff", "echo", "cat", "cargo test", "tee", "sort", "ls *")


@pytest.mark.parametrize(
    ("line", "allowed"),
    [
        ("git status", True),
        ("git status -s", True),
        ("git statusx", False),
        ("git", False),
        ("git status && git diff HEAD", True),
        ("git status; rm -rf x", False),
        ("git status && rm -rf x", False),
        ("git status || rm -rf x", False),
        ("git status | rm -rf x", False),
        ("git status & rm -rf x", False),
        ("git status\nrm -rf x", False),
        ("(rm -rf x)", False),
        ("echo $(rm -rf x)", False),
        ("echo `rm -rf x`", False),
        ('echo "$(rm -rf x)"', False),
        ("cat <(rm -rf x)", False),
        ("tee >(rm -rf x)", False),
        ("echo $(git status)", True),
        ("echo '$(rm -rf x)'", True),
        ('echo "a; rm -rf x"', True),
        ("echo a\\; rm -rf x", True),
        ('echo "unterminated; rm -rf x', False),
        ("cargo test 2>&1 | tee log.txt", True),
        ("cargo test > log.txt", False),
        ("cargo test > /dev/null 2>&1", True),
        ("sort < data.txt", True),
        ("FOO=1 git status", False),
        ("ls -la src", True),
        ("ls", False),  # the glob `ls *` needs something after `ls `
        ("ls x; rm -rf x", False),
        ("cat <<EOF\nrm -rf x\nEOF", False),
        ("", False),
    ],
)
def test_allow_rules_cover_every_simple_command(line: str, allowed: bool) -> None:
    assert match_allow(line, ALLOW).allowed is allowed


def test_allow_match_reports_rules_used_in_order() -> None:
    assert match_allow("git diff; git status; git diff", ALLOW) == AllowMatch(
        rules=("git diff", "git status")
    )


def test_rules_are_split_like_shell_words() -> None:
    assert match_allow("python -m 'my tool' --fast", ["python -m 'my tool'"]).allowed
    assert not match_allow("python -m my tool", ["python -m 'my tool'"]).allowed
    assert not match_allow("anything", ["", "   "]).allowed


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("rm -rf build", "rm -rf"),
        ("sudo rm -rf /", "rm -rf"),
        ("/bin/rm -rf x", "rm -rf"),
        ("find . | xargs rm -rf", "rm -rf"),
        ("ls && rm -rf x", "rm -rf"),
        ("echo $(rm -rf x)", "rm -rf"),
        ('bash -c "rm -rf /"', "rm -rf"),
        ('echo "open; rm -rf x', "rm -rf"),
        ("cd app && git push origin main", "git push"),
        ("git push --force", "*--force*"),
        ("echo x > /etc/passwd", "*/etc/passwd*"),
        ("rm -fr x", "rm -rf"),
        ("rm -r -f x", "rm -rf"),
        ("rm -Rf x", "rm -rf"),
        ("rm --recursive --force x", "rm -rf"),
        ("rm --force -v --recursive -- x", "rm -rf"),
        ("sh -c 'rm -fr x'", "rm -rf"),
        ("bash -lc 'cd /tmp && rm -r -f x'", "rm -rf"),
        ('bash -c "sh -c \\"rm --recursive --force x\\""', "rm -rf"),
        ("git push origin main --force", "git push --force"),
        ("git -C repo push -f", "git push --force"),
        ("chmod --recursive 777 /", "chmod -R"),
    ],
)
def test_deny_rules_match_anywhere(line: str, rule: str) -> None:
    assert match_deny(line, ["curl", rule]) == rule


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("git commit -m 'fix'", "rm -rf"),
        ("rm -r build", "rm -rf"),
        ("git pushx", "git push"),
        ("git push origin main", "*--force*"),
        ("ls", ""),
        ("rm -f x", "rm -rf"),
        ("rm --recursive x", "rm -rf"),
        ("git push origin main", "git push --force"),
        ("git commit -m push --force", "git push --force"),
        ("sh -c 'rm -r x'", "rm -rf"),
    ],
)
def test_deny_rules_do_not_match_other_commands(line: str, rule: str) -> None:
    assert match_deny(line, [rule]) is None


# --- properties -------------------------------------------------------------------------------

WORDS = st.sampled_from(
    ["git", "status", "diff", "ls", "rm", "-rf", "build", "echo", "make", "x", "'a b'", '"c;d"']
)
PART = st.lists(WORDS, min_size=1, max_size=4).map(" ".join)
RULE_MODES: tuple[ApprovalMode, ...] = ("ask", "auto-edit")
SEPARATOR = st.sampled_from([";", " ; ", ";\n", "&&", " || ", "|", "&", "\n"])


def _prefix_oracle(part: str, rules: list[str]) -> bool:
    """Independent statement of the rule: some rule's words are a prefix of the part's words."""
    words = shlex.split(part)
    return any(words[: len(shlex.split(r))] == shlex.split(r) for r in rules if shlex.split(r))


def _join(parts: list[str], separators: list[str]) -> str:
    line = parts[0]
    for part, separator in zip(parts[1:], separators, strict=False):
        line += separator + part
    return line


@given(
    rules=st.lists(PART, min_size=1, max_size=4),
    parts=st.lists(PART, min_size=1, max_size=5),
    separators=st.lists(SEPARATOR, min_size=4, max_size=4),
    mode=st.sampled_from(RULE_MODES),
)
def test_a_part_outside_the_allow_list_is_never_allowed(
    rules: list[str], parts: list[str], separators: list[str], mode: ApprovalMode
) -> None:
    assume(not all(_prefix_oracle(part, rules) for part in parts))
    decision = decide(ApprovalPolicy(mode, allow=tuple(rules)), "command", _join(parts, separators))

    assert decision.action == "ask"


@given(
    rules=st.lists(PART, min_size=1, max_size=4),
    picks=st.lists(st.tuples(st.integers(0, 3), st.lists(WORDS, max_size=2)), min_size=1, max_size=5),
    separators=st.lists(SEPARATOR, min_size=4, max_size=4),
)
def test_parts_inside_the_allow_list_are_allowed(
    rules: list[str], picks: list[tuple[int, list[str]]], separators: list[str]
) -> None:
    parts = [" ".join([rules[i % len(rules)], *extra]) for i, extra in picks]

    assert match_allow(_join(parts, separators), rules).allowed


@given(
    rules=st.lists(PART, min_size=1, max_size=4),
    outer=PART,
    hidden=PART,
    wrap=st.sampled_from(["$({})", "`{}`", '"$({})"', "<({})"]),
)
def test_a_substituted_command_outside_the_allow_list_is_never_allowed(
    rules: list[str], outer: str, hidden: str, wrap: str
) -> None:
    assume(not _prefix_oracle(hidden, rules))

    assert not match_allow(f"{outer} {wrap.format(hidden)}", rules).allowed


@given(line=st.text(), rules=st.lists(st.text(max_size=10), max_size=3))
def test_arbitrary_text_never_raises(line: str, rules: list[str]) -> None:
    split_command(line)
    match_allow(line, rules)
    match_deny(line, rules)


@pytest.mark.parametrize(
    "line",
    ["git -C . push", "git -c core.x=1 push origin", "git --no-pager push", "git --git-dir .git push -f"],
)
def test_deny_rules_see_through_git_global_options(line: str) -> None:
    assert match_deny(line, ["git push"]) == "git push"


def test_git_global_options_do_not_widen_allow_rules() -> None:
    assert not match_allow("git -c core.pager=evil status", ["git status"]).allowed
