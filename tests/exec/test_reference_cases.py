"""Acceptance cases of reference exec-spool-release.md section 12 ([P] parity, [I] adopted improvements).

Each test is named `test_ref<N>_...` after the case it demonstrates; SPEC section 8 decides where it
differs from the reference (spool name `<id>.log`, `poll` without chars, a wait default of 600 s).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from tests.exec.helpers import Harness, alive, read_pid
from vtcode.exec.manager import ExecSettings


async def test_ref01_missing_cmd_is_an_error_and_starts_nothing(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run()
        assert result["success"] is False
        assert "cmd" in result["error"]["message"]
        assert result["error"]["tool_name"] == "exec_command"
        assert not h.manager.sessions


async def test_ref02_invalid_max_output_tokens_fail_before_spawning(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        for value in (0, 50_001, "100", 1.5):
            result = await h.run(cmd="touch spawned", max_output_tokens=value)
            assert result["error"]["message"] == "max_output_tokens must be an integer between 1 and 50000"
        assert not (tmp_path / "spawned").exists()


async def test_ref03_yield_zero_returns_a_running_session_with_continuations(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="sleep 1", yield_time_ms=0)
        sid = result["session_id"]
        assert re.fullmatch(r"run-[0-9a-f]{8}", sid)
        assert (result["is_exited"], result["process_id"]) == (False, sid)
        assert result["next_wait_args"] == {"session_id": sid, "action": "wait", "wait_timeout_seconds": 600}
        assert result["next_continue_args"] == {"session_id": sid}


async def test_ref05_small_output_stays_inline_and_is_spooled_internally(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="printf 'small output\\n'")
        assert {
            k: result[k] for k in ("output", "exit_code", "is_exited", "backend", "total_output_bytes")
        } == {
            "output": "small output\n",
            "exit_code": 0,
            "is_exited": True,
            "backend": "pipe",
            "total_output_bytes": 13,
        }
        assert result["output_truncated"] is False
        assert not {"spool_path", "spool_complete", "spool_pending"} & result.keys()
        assert h.spool(result).read_text() == "small output\n"


async def test_ref06_empty_poll_then_input_with_whitespace_preserved(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        started = await h.run(cmd="IFS= read -r l; printf '<%s>\\n' \"$l\"", yield_time_ms=250)
        sid = started["session_id"]
        polled = await h.stdin(session_id=sid, chars="", yield_time_ms=250)
        assert (polled["output"], polled["is_exited"]) == ("", False)
        answered = await h.stdin(session_id=sid, chars="  keep  \n", yield_time_ms=2000)
        assert answered["output"] == "<  keep  >\n"
        assert answered["exit_code"] == 0


async def test_ref07_poll_without_chars_works_and_action_is_case_insensitive(tmp_path: Path) -> None:
    """SPEC section 8.1 replaces the reference's quirk Q6 (poll without chars was refused)."""
    async with Harness(tmp_path) as h:
        started = await h.run(cmd="sleep 5", yield_time_ms=250)
        polled = await h.stdin(session_id=started["session_id"], yield_time_ms=250)
        explicit = await h.stdin(session_id=started["session_id"], action="poll", yield_time_ms=250)
        waited = await h.stdin(session_id=started["session_id"], action="WAIT", wait_timeout_seconds=1)
        assert [r["is_exited"] for r in (polled, explicit, waited)] == [False, False, False]
        assert waited["wait_deadline_seconds"] == 1


async def test_ref08_ref09_bad_and_unknown_session_ids(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        bad = await h.stdin(session_id="../x", chars="")
        assert "Invalid session_id" in bad["error"]["message"]
        assert "Expected an ASCII token" in bad["error"]["message"]
        missing = await h.stdin(session_id="run-deadbeef", chars="")
        assert missing["error"]["tool_name"] == "write_stdin"
        assert "not found" in missing["error"]["message"]


async def test_ref10_duplicate_session_id_starts_one_child_only(tmp_path: Path) -> None:
    async with Harness(tmp_path, new_id=lambda: "same-id") as h:
        first, second = await asyncio.gather(
            h.run(cmd="echo x >> spawned; sleep 5", yield_time_ms=250),
            h.run(cmd="echo x >> spawned; sleep 5", yield_time_ms=250),
        )
        outcomes = sorted([first, second], key=lambda r: r["success"])
        assert "already exists" in outcomes[0]["error"]["message"]
        assert outcomes[1]["session_id"] == "same-id"
        assert (tmp_path / "spawned").read_text() == "x\n"


async def test_ref11_wait_deadline_then_exit_with_spool(tmp_path: Path) -> None:
    cmd = (
        "echo $$ > s.pid; sleep 0.2; printf wait-output; head -c 9000 /dev/zero | tr '\\0' x; "
        "printf '\\n'; sleep 2"
    )
    async with Harness(tmp_path) as h:
        started = await h.run(cmd=cmd, yield_time_ms=0)
        shell = await read_pid(tmp_path / "s.pid")
        sid = started["session_id"]
        first = await h.stdin(action="wait", session_id=sid, wait_timeout_seconds=1, max_output_tokens=16)
        assert (first["is_exited"], first["wait_deadline_seconds"]) == (False, 1)
        assert first["waited_seconds"] >= 1.0
        assert "next_wait_args" in first
        assert alive(shell)
        second = await h.stdin(action="wait", session_id=sid, wait_timeout_seconds=3)
        assert (second["is_exited"], second["exit_code"], second["spool_complete"]) == (True, 0, True)
        assert "wait-output" in (tmp_path / second["spool_path"]).read_text()


async def test_ref12_wait_returns_done(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        started = await h.run(cmd="sleep 0.5; echo done", yield_time_ms=0)
        result = await h.stdin(session_id=started["session_id"], action="wait", wait_timeout_seconds=30)
        assert (result["exit_code"], result["output"]) == (0, "done\n")


async def test_ref13_wait_deadline_default_ceiling_and_alias(tmp_path: Path) -> None:
    settings = ExecSettings(subreaper=False, wait_default_seconds=60, wait_ceiling_seconds=60)
    async with Harness(tmp_path) as h, Harness(tmp_path / "capped", settings) as capped:
        (tmp_path / "capped").mkdir(exist_ok=True)
        for harness, args, expected in (
            (h, {}, 600),
            (h, {"timeout_seconds": 5}, 5),
            (capped, {"wait_timeout_seconds": 600}, 60),
        ):
            started = await harness.run(cmd="sleep 0.3", yield_time_ms=0)
            result = await harness.stdin(session_id=started["session_id"], action="wait", **args)
            assert result["wait_deadline_seconds"] == expected


async def test_ref14_each_call_returns_only_new_output(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        started = await h.run(cmd="echo A; sleep 1.5; echo B; sleep 1", yield_time_ms=250)
        assert started["output"] == "A\n"
        result = await h.stdin(session_id=started["session_id"], action="wait", wait_timeout_seconds=5)
        assert result["output"] == "B\n"
        assert h.spool(result).read_text() == "A\nB\n"


async def test_ref19_exit_codes_and_signals(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        three = await h.run(cmd="exit 3")
        killed = await h.run(cmd="kill -9 $$")
        assert (three["exit_code"], "signal" in three) == (3, False)
        assert (killed["exit_code"], killed["signal"]) == (-1, "SIGKILL")


async def test_ref20_command_not_found(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="this_cmd_does_not_exist_123")
        assert result["exit_code"] == 127
        assert result["critical_note"] == "Command `this_cmd_does_not_exist_123` was not found in PATH."
        assert "next_action" in result


async def test_ref21_high_volume_spool_with_tiny_preview(tmp_path: Path) -> None:
    cmd = "i=0; while [ $i -lt 20000 ]; do printf 'line-%05d\\n' $i; i=$((i+1)); done; sleep 1"
    async with Harness(tmp_path) as h:
        started = await h.run(cmd=cmd, yield_time_ms=0)
        result = await h.stdin(
            session_id=started["session_id"], action="wait", wait_timeout_seconds=30, max_output_tokens=8
        )
        assert (result["exit_code"], result["total_output_bytes"], result["output_truncated"]) == (
            0,
            220_000,
            True,
        )
        assert result["spool_path"] == f".vtcode/context/tool_outputs/{started['session_id']}.log"
        assert (result["spool_complete"], result["spooled_bytes"]) == (True, 220_000)
        assert result["spool_path"] in result["spool_note"]
        assert len(result["output"].encode()) <= 100
        content = (tmp_path / result["spool_path"]).read_text()
        assert content.startswith("line-00000\n")
        assert content.endswith("line-19999\n")
        assert content.count("\n") == 20_000
        assert started["session_id"] not in h.manager.sessions


async def test_ref22_active_partial_snapshot(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        started = await h.run(cmd="head -c 20000 /dev/zero | tr '\\0' x; sleep 2", yield_time_ms=0)
        partial = await h.stdin(session_id=started["session_id"], action="wait", wait_timeout_seconds=1)
        assert (partial["is_exited"], partial["spool_complete"], "spool_pending" in partial) == (
            False,
            False,
            False,
        )
        assert (tmp_path / partial["spool_path"]).stat().st_size == 20_000
        done = await h.stdin(session_id=started["session_id"], action="wait")
        assert done["spool_complete"] is True


async def test_ref23_spool_open_failure_never_references_a_spool(tmp_path: Path) -> None:
    (tmp_path / ".vtcode").mkdir()
    (tmp_path / ".vtcode" / "context").write_text("a file where the folder should be\n")
    async with Harness(tmp_path) as h:
        started = await h.run(cmd="sleep 0.3; head -c 50000 /dev/zero | tr '\\0' y", yield_time_ms=0)
        done = await h.stdin(session_id=started["session_id"], action="wait")
        for result in (started, done):
            assert not {"spool_path", "spool_pending", "spool_complete"} & result.keys()
            assert "could not create the spool file" in result["spool_error"]
        assert done["total_output_bytes"] == 50_000
        assert done["is_exited"] is True
        assert started["session_id"] not in h.manager.sessions


async def test_ref25_exited_with_unfinished_spool_then_complete(tmp_path: Path) -> None:
    cmd = "(sleep 3) & head -c 20000 /dev/zero | tr '\\0' x; exit 0"
    async with Harness(tmp_path) as h:
        first = await h.run(cmd=cmd, yield_time_ms=2000)
        sid = first["session_id"]
        assert (first["is_exited"], first["exit_code"], first["spool_complete"], first["spool_pending"]) == (
            True,
            0,
            False,
            True,
        )
        assert first["spool_pending_reason"] == "stream_held_open"
        assert "spool_path" not in first
        assert sid in h.manager.sessions
        again = await h.stdin(session_id=sid, action="wait", wait_timeout_seconds=1)
        assert (again["spool_pending"], "spool_path" in again) == (True, False)
        final = await h.stdin(session_id=sid, action="wait", wait_timeout_seconds=10)
        assert (final["spool_path"], final["spool_complete"]) == (
            f".vtcode/context/tool_outputs/{sid}.log",
            True,
        )
        assert (tmp_path / final["spool_path"]).read_bytes() == b"x" * 20_000
        gone_result = await h.stdin(session_id=sid, action="wait", wait_timeout_seconds=1)
        assert "not found" in gone_result["error"]["message"]


async def test_ref26_mid_size_output_keeps_spool_internal(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="head -c 5000 /dev/zero | tr '\\0' z")
        assert not {"spool_path", "spool_complete", "spool_pending"} & result.keys()
        assert h.spool(result).stat().st_size == 5000


async def test_ref27_output_cap_on_a_write_advertises_the_spool(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        started = await h.run(cmd="cat", yield_time_ms=250)
        alphabet = "abcdefghijklmnopqrstuvwxyz\n"
        result = await h.stdin(session_id=started["session_id"], chars=alphabet, max_output_tokens=1)
        assert result["truncated"] is True
        assert result["spool_path"].endswith(f"{started['session_id']}.log")
        assert (tmp_path / result["spool_path"]).read_text() == alphabet


async def test_ref28_spool_references_off_keep_diagnostics(tmp_path: Path) -> None:
    settings = ExecSettings(subreaper=False, spool_references=False)
    async with Harness(tmp_path, settings) as h:
        result = await h.run(cmd="head -c 200000 /dev/zero | tr '\\0' z")
        assert (result["total_output_bytes"], result["output_truncated"]) == (200_000, True)
        assert not {"spool_path", "spool_pending", "spool_complete"} & result.keys()


async def test_ref29_reading_a_spool_does_not_make_a_second_reference(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        big = await h.run(cmd="seq -f 'line-%05g' 0 19999")
        result = await h.run(cmd=f"cat {big['spool_path']}", max_output_tokens=20)
        assert result["exit_code"] == 0
        assert "spool_path" not in result
        assert result["output"].startswith("line-00000")


async def test_ref32_pipe_and_pty_spools_use_the_same_name(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        for tty in (False, True):
            result = await h.run(cmd="echo hi", tty=tty)
            assert h.spool(result).exists()
            assert h.spool(result).name == f"{result['session_id']}.log"


async def test_ref33_cap_records_truncation_and_completes(tmp_path: Path) -> None:
    settings = ExecSettings(subreaper=False, spool_max_bytes=64 * 1024)
    async with Harness(tmp_path, settings) as h:
        result = await h.run(cmd="head -c 200000 /dev/zero | tr '\\0' c")
        assert result["spool_truncated_bytes"] == 200_000 - 64 * 1024
        assert (result["spool_complete"], result["spooled_bytes"]) == (True, 64 * 1024)
        assert result["output"].startswith(f"[spool capped at {64 * 1024} bytes")
        assert (
            (tmp_path / result["spool_path"])
            .read_bytes()
            .startswith(b"c" * 64 * 1024 + b"\n[vtcode: spool capped")
        )


async def test_ref36_ansi_stripped_in_preview_kept_in_pipe_spool(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="printf '\\033[31mred\\033[0m\\n'")
        assert result["output"] == "red\n"
        assert h.spool(result).read_bytes() == b"\x1b[31mred\x1b[0m\n"


async def test_ref37_carriage_returns_are_normalized(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="printf 'a\\r\\nb\\rc\\n'")
        assert result["output"] == "a\nb\nc\n"


async def test_ref38b_a_burst_within_budget_appears_exactly_once(tmp_path: Path) -> None:
    async with Harness(tmp_path) as h:
        result = await h.run(cmd="head -c 10000 /dev/zero | tr '\\0' b")
        assert (result["output"], result["output_truncated"]) == ("b" * 10_000, False)
        pty = await h.run(cmd="cat", tty=True, yield_time_ms=300)
        (tmp_path / "lines.txt").write_text("".join(f"short {i}\n" for i in range(1000)))
        await h.stdin(session_id=pty["session_id"], action="kill")
        lines = await h.run(cmd="cat lines.txt", tty=True)
        assert lines["output"] == "".join(f"short {i}\n" for i in range(1000))


async def test_ref39_ref40_long_output_keeps_first_and_last_bytes(tmp_path: Path) -> None:
    cmd = "echo 'running 9000 tests'; seq -f 'test t%g ... ok' 1 9000; echo 'test result: FAILED. 1 failed'"
    async with Harness(tmp_path) as h:
        result = await h.run(cmd=cmd, max_output_tokens=8000)
        assert result["output"].startswith("running 9000 tests\n")
        assert result["output"].endswith("test result: FAILED. 1 failed\n")
        assert len(result["output"].encode()) <= 32_000
        assert result["omitted_bytes"] > 0
