"""The model's copy of a command result: only the fields that say something, under the spool rules."""

from __future__ import annotations

import json

import msgspec

from vtcode.core.exec.model_view import FRONT_END_FIELDS, MODEL_FIELDS, encode_for_model, model_fields
from vtcode.core.exec.result import CallView, ExecResult, SessionView, build_result, error_result
from vtcode.core.exec.spool import SpoolState
from vtcode.core.preview import Preview

PATH = ".vtcode/context/tool_outputs/run-1a2b3c4d.log"


def _session(**overrides: object) -> SessionView:
    base: dict[str, object] = {
        "session_id": "run-1a2b3c4d",
        "command": "make",
        "backend": "pipe",
        "working_directory": ".",
        "returncode": 0,
        "signal_name": None,
        "drained": True,
        "total_output_bytes": 3,
        "output_truncated": False,
        "spool": SpoolState(cap_bytes=1000, opened=True, written_bytes=3, finished=True),
        "spool_path": PATH,
        "spool_advertise": True,
        "spool_threshold": 8192,
    }
    base.update(overrides)
    return SessionView(**base)  # type: ignore[arg-type]


def _call(wall_time: float = 0.02, text: str = "ok\n", **preview: object) -> CallView:
    return CallView("start", wall_time, Preview(text, **preview))  # type: ignore[arg-type]


def test_finished_command_is_exit_code_and_output() -> None:
    result = build_result(_session(), _call())
    assert encode_for_model(result) == '{"exit_code":0,"output":"ok\\n"}'


def test_long_call_keeps_its_wall_time() -> None:
    result = build_result(_session(), _call(wall_time=42.0))
    assert model_fields(result) == {"exit_code": 0, "wall_time": 42.0, "output": "ok\n"}


def test_signal_death_names_the_signal() -> None:
    result = build_result(_session(returncode=-9, signal_name="SIGKILL"), _call(text=""))
    assert model_fields(result) == {"exit_code": -1, "signal": "SIGKILL", "output": ""}


def test_cut_preview_points_at_the_complete_spool() -> None:
    spool = SpoolState(cap_bytes=100_000, opened=True, written_bytes=50_000, finished=True)
    session = _session(total_output_bytes=50_000, spool=spool)
    result = build_result(session, _call(text="head\n[…]\ntail\n", truncated=True, omitted_bytes=49_990))
    assert model_fields(result) == {
        "exit_code": 0,
        "truncated": True,
        "spool_path": PATH,
        "spool_complete": True,
        "output": "head\n[…]\ntail\n",
    }


def test_running_command_says_so_and_how_to_wait() -> None:
    spool = SpoolState(cap_bytes=1000, opened=True, written_bytes=3)
    result = build_result(_session(returncode=None, drained=False, spool=spool), _call(wall_time=10.0))
    assert model_fields(result) == {
        "session_id": "run-1a2b3c4d",
        "is_exited": False,
        "wall_time": 10.0,
        "next_wait_args": {"session_id": "run-1a2b3c4d", "action": "wait", "wait_timeout_seconds": 600},
        "output": "ok\n",
    }


def test_exited_command_with_an_unfinished_spool_says_to_wait() -> None:
    spool = SpoolState(cap_bytes=1000, opened=True, written_bytes=3)
    result = build_result(_session(drained=False, spool=spool), _call())
    fields = model_fields(result)
    assert (fields["exit_code"], fields["spool_complete"], fields["spool_pending"]) == (0, False, True)
    assert "spool_path" not in fields
    assert fields["next_wait_args"]["action"] == "wait"
    assert "not complete" in fields["spool_note"]


def test_failed_spool_is_reported_and_never_referenced() -> None:
    spool = SpoolState(cap_bytes=1000, opened=True, failure="No space left on device", finished=True)
    session = _session(total_output_bytes=50_000, spool=spool, output_truncated=True)
    fields = model_fields(build_result(session, _call(text="tail\n", truncated=True)))
    assert fields["spool_error"] == "No space left on device"
    assert "spool_path" not in fields
    assert "spool_complete" not in fields


def test_error_carries_only_the_message() -> None:
    error = error_result("write_stdin", "Unknown session_id run-x")
    assert json.loads(encode_for_model(error)) == {"error": "Unknown session_id run-x"}


def test_sandbox_and_not_found_notes_reach_the_model() -> None:
    result = build_result(_session(returncode=127), _call(text="sh: 1: nosuch: not found\n"))
    noted = msgspec.structs.replace(result, sandbox_note="the OS sandbox probably blocked this")
    fields = model_fields(noted)
    assert fields["sandbox_note"] == "the OS sandbox probably blocked this"
    assert fields["critical_note"] == "Command `make` was not found in PATH."
    assert fields["next_action"].startswith("Check the program name")


def test_every_result_field_is_either_for_the_model_or_for_front_ends_only() -> None:
    names = set(ExecResult.__struct_fields__)
    assert MODEL_FIELDS.isdisjoint(FRONT_END_FIELDS)
    assert set(MODEL_FIELDS) | set(FRONT_END_FIELDS) == names
