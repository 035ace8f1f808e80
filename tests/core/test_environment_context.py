"""The environment context text: what the model is told about where it runs, and nothing that drifts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from vtcode.core.environment_context import (
    ContextParts,
    EnvironmentFacts,
    is_environment_context,
    render_environment_context,
)
from vtcode.core.git_status import GitState, parse_porcelain_v2

TOKYO = timezone(timedelta(hours=9), "JST")


def _facts(**overrides: object) -> EnvironmentFacts:
    base: dict[str, object] = {
        "working_directory": "/home/ada/calc",
        "os": "Linux 6.1.0 (x86_64)",
        "shell": "bash",
        "now": datetime(2026, 12, 1, 14, 5, tzinfo=TOKYO),
        "git": GitState(branch="main", staged=1, modified=2, untracked=3),
        "approval": "auto-edit",
        "sandbox": "none",
    }
    base.update(overrides)
    return EnvironmentFacts(**base)  # type: ignore[arg-type]


def test_renders_every_fact_on_its_own_line() -> None:
    assert render_environment_context(_facts()) == (
        "<environment_context>\n"
        "Working directory: /home/ada/calc\n"
        "OS: Linux 6.1.0 (x86_64); shell: bash\n"
        "Today: Tuesday 2026-12-01; time zone: JST (UTC+09:00)\n"
        "Git: branch main; 1 staged, 2 modified, 3 untracked\n"
        "Approval mode: auto-edit (reads and edits freely; commands need approval); sandbox: none\n"
        "</environment_context>"
    )


def test_config_keys_switch_off_the_date_and_the_working_directory() -> None:
    text = render_environment_context(_facts(), ContextParts(temporal=False, working_directory=False))
    assert "Today:" not in text
    assert "/home/ada/calc" not in text
    assert "Git: branch main" in text


def test_time_of_day_never_changes_the_text() -> None:
    morning = _facts(now=datetime(2026, 12, 1, 0, 1, tzinfo=TOKYO))
    evening = _facts(now=datetime(2026, 12, 1, 23, 59, tzinfo=TOKYO))
    tomorrow = _facts(now=datetime(2026, 12, 2, 0, 1, tzinfo=TOKYO))
    assert render_environment_context(morning) == render_environment_context(evening)
    assert render_environment_context(morning) != render_environment_context(tomorrow)


def test_utc_and_negative_offsets() -> None:
    utc = render_environment_context(_facts(now=datetime(2026, 1, 5, tzinfo=UTC)))
    assert "Today: Monday 2026-01-05; time zone: UTC+00:00\n" in utc
    west = timezone(timedelta(hours=-3, minutes=-30), "NST")
    newfoundland = render_environment_context(_facts(now=datetime(2026, 1, 5, tzinfo=west)))
    assert "time zone: NST (UTC-03:30)" in newfoundland


def test_git_lines() -> None:
    def git_line(facts: EnvironmentFacts) -> str:
        return next(
            line for line in render_environment_context(facts).splitlines() if line.startswith("Git:")
        )

    assert git_line(_facts(git=None)) == "Git: not a git repository"
    assert git_line(_facts(git=GitState(branch="dev"))) == "Git: branch dev; clean"
    detached = GitState(branch=None, commit="8ea9b7446eaa", conflicted=2)
    assert git_line(_facts(git=detached)) == "Git: detached HEAD at 8ea9b7446eaa; 2 conflicted"
    slow = _facts(git=GitState(branch="main"), git_counts_known=False)
    assert git_line(slow) == "Git: branch main; status not checked (it took too long)"


def test_the_item_is_recognisable() -> None:
    assert is_environment_context(render_environment_context(_facts()))
    assert not is_environment_context("what is <environment_context>?")


def test_porcelain_v2_counts() -> None:
    text = (
        "# branch.oid 8ea9b7446eaaf69bd0ae32d7f0008f4dbcba9c9c\n"
        "# branch.head feature/x\n"
        "# branch.upstream origin/feature/x\n"
        "# branch.ab +1 -0\n"
        "1 .M N... 100644 100644 100644 aaa aaa src/a.py\n"
        "1 M. N... 100644 100644 100644 aaa bbb src/b.py\n"
        "1 MM N... 100644 100644 100644 aaa bbb src/c.py\n"
        "2 R. N... 100644 100644 100644 aaa aaa R100 new.py\told.py\n"
        "u UU N... 100644 100644 100644 100644 aaa bbb ccc both.py\n"
        "? notes.txt\n"
        "? tmp/\n"
    )
    assert parse_porcelain_v2(text) == GitState(
        branch="feature/x", commit="8ea9b7446eaa", staged=3, modified=2, untracked=2, conflicted=1
    )


def test_porcelain_v2_of_a_new_repository_and_a_detached_head() -> None:
    assert parse_porcelain_v2("# branch.oid (initial)\n# branch.head main\n") == GitState(branch="main")
    detached = parse_porcelain_v2("# branch.oid 0123456789abcdef\n# branch.head (detached)\n")
    assert detached == GitState(branch=None, commit="0123456789ab")
