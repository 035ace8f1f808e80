"""A run stopped by a limit tells how to go on: continue the stored session, or, for an `--ephemeral`
run that stored nothing, run it again; it never points an ephemeral run at `--continue`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import VtcodeRunner
from tests.e2e.test_exec_usage_and_budget import _budget_script, _workspace
from vtcode.testing.wire import cli_args, cli_env, server_for

_LIMITS = {"budget": ("--max-tokens-total", "5000"), "max_turns": ("--max-turns", "2")}


@pytest.mark.parametrize("kind", list(_LIMITS))
@pytest.mark.parametrize("ephemeral", [False, True])
def test_the_stop_hint_points_at_continue_only_when_the_session_is_stored(
    vtcode: VtcodeRunner, isolated_home: Path, tmp_path: Path, kind: str, ephemeral: bool
) -> None:
    ws = _workspace(tmp_path)
    flags = ["--ephemeral"] if ephemeral else []
    with server_for("chat", _budget_script()) as server:
        run = vtcode.run(
            "exec", "--json", *_LIMITS[kind], *flags, *cli_args("chat"), "read",
            cwd=ws, env=cli_env("chat", server),
        )  # fmt: skip
    assert run.code == 1, run.stderr
    (failed,) = [e for e in map(json.loads, run.stdout.splitlines()) if e["type"] == "turn.failed"]
    assert failed["kind"] == kind
    hint = failed["hint"]
    if ephemeral:
        assert "--continue" not in hint, hint
        assert "ephemeral" in hint, hint
    else:
        assert "--continue" in hint, hint
    stored = list((isolated_home / ".vtcode" / "sessions").glob("*/history.jsonl"))
    assert len(stored) == (0 if ephemeral else 1)
