"""Pure parts of command sessions: previews, text cleaning, wait deadlines, spool states, reference rules."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vtcode.core.exec.result import CallView, SessionView, build_result
from vtcode.core.exec.spool import (
    HELD_OPEN,
    Dropped,
    Finished,
    Opened,
    OpenFailed,
    SpoolEvent,
    SpoolFields,
    SpoolState,
    SpoolView,
    WriteFailed,
    Wrote,
    advance,
    expired,
    room,
    spool_fields,
)
from vtcode.core.exec.text import clean_text, held_back, incomplete_utf8_suffix
from vtcode.core.exec.wait import (
    POST_EXIT_DRAIN_SECONDS,
    clamp_yield_ms,
    max_output_tokens,
    return_at,
    wait_ceiling,
    wait_deadline,
)
from vtcode.core.preview import HeadTailBuffer, Preview

# --- previews -------------------------------------------------------------------------------------


def test_short_output_is_returned_whole() -> None:
    buffer = HeadTailBuffer(100)
    buffer.feed(b"one\ntwo\n")
    assert buffer.render(1000) == Preview("one\ntwo\n")


def test_preview_keeps_head_and_tail_with_a_marker_naming_bytes_and_lines() -> None:
    buffer = HeadTailBuffer(10_000)
    data = b"".join(b"line-%05d\n" % i for i in range(20_000))
    for start in range(0, len(data), 4096):
        buffer.feed(data[start : start + 4096])
    preview = buffer.render(600)
    lines = preview.text.splitlines()
    assert lines[0] == "line-00000"
    assert lines[-1] == "line-19999"
    marker = next(line for line in lines if line.startswith("[…"))
    assert marker == f"[… {preview.omitted_bytes} bytes, {preview.omitted_lines} lines omitted …]"
    kept = preview.text.replace(marker + "\n", "").encode()
    assert preview.omitted_bytes == len(data) - len(kept)
    assert preview.omitted_lines == 20_000 - kept.count(b"\n")
    assert len(preview.text.encode()) <= 600


def test_tail_is_built_from_the_real_end_not_from_a_cut_head() -> None:
    """Reference quirk Q1 / acceptance 40: the last line of a failed test run always survives."""
    buffer = HeadTailBuffer(200_000)
    buffer.feed(b"running 4000 tests\n" + b"test ok\n" * 5000 + b"test result: FAILED. 1 failed\n")
    preview = buffer.render(4 * 8000)
    assert preview.text.endswith("test result: FAILED. 1 failed\n")
    assert preview.text.startswith("running 4000 tests\n")


@given(st.text(min_size=0, max_size=300), st.integers(min_value=1, max_value=400))
def test_preview_never_splits_a_character(text: str, limit: int) -> None:
    """Acceptance 34, with the tail kept: a tiny budget still yields valid text, never half a character."""
    buffer = HeadTailBuffer(64)
    buffer.feed(text.encode())
    preview = buffer.render(limit)
    assert "\ufffd" not in preview.text or "\ufffd" in text
    if text and not preview.truncated:
        assert preview.text == clean_text(text)


def test_ansi_is_stripped_from_previews_and_line_endings_normalized() -> None:
    """Acceptance 36 and 37."""
    assert clean_text("\x1b[31mred\x1b[0m\n") == "red\n"
    assert clean_text("a\r\nb\rc\n") == "a\nb\nc\n"
    assert clean_text("\x1b]0;title\x07ok\x1b(B\x7f\x00\n") == "ok\n"
    assert clean_text("tab\tkept\x1b[") == "tab\tkept"


def test_unfinished_characters_and_escapes_are_held_for_the_next_read() -> None:
    euro = "€".encode()
    assert incomplete_utf8_suffix(b"a" + euro[:2]) == 2
    assert incomplete_utf8_suffix(b"a" + euro) == 0
    assert held_back(b"x\x1b[3", final=False) == 3
    assert held_back(b"x\x1b[31m", final=False) == 0
    assert held_back(b"x\x1b[3", final=True) == 0


# --- wait deadlines -------------------------------------------------------------------------------


def test_yield_windows_are_clamped_like_the_reference() -> None:
    """Acceptance 3 and 4 without the clock: 0 → 250 ms, 120000 → 30000 ms, missing → default."""
    assert [clamp_yield_ms(v, 10_000) for v in (None, 0, 100, 5000, 120_000)] == [
        10_000,
        250,
        250,
        5000,
        30_000,
    ]


def test_wait_deadline_defaults_to_600_and_is_capped_by_the_ceiling() -> None:
    """Acceptance 13 with SPEC section 8.2's default of 600 s."""
    assert wait_deadline(None, 600, 3600) == 600
    assert wait_deadline(600, 600, 60) == 60
    assert wait_deadline(5, 600, 3600) == 5
    assert wait_deadline(0, 600, 3600) == 1
    assert wait_ceiling(0, 180) == 180
    assert wait_ceiling(0, 0) == 3600
    assert wait_ceiling(900, 180) == 900


@pytest.mark.parametrize("value", [0, 50_001, "100", 1.5, True, -3])
def test_invalid_max_output_tokens_are_refused(value: object) -> None:
    """Acceptance 2."""
    with pytest.raises(ValueError, match="max_output_tokens must be an integer between 1 and 50000"):
        max_output_tokens(value)


def test_return_at_separates_exit_from_drain() -> None:
    running = return_at(now=5, deadline=10, exited_at=None, drained=False, exit_reported=False)
    done = return_at(now=5, deadline=10, exited_at=4, drained=True, exit_reported=False)
    held = return_at(now=5, deadline=10, exited_at=4.5, drained=False, exit_reported=False)
    later = return_at(now=5, deadline=10, exited_at=4.5, drained=False, exit_reported=True)
    assert (running, done, held, later) == (10, 5, 4.5 + POST_EXIT_DRAIN_SECONDS, 10)


# --- spool states (property tests) ----------------------------------------------------------------

_events = st.one_of(
    st.just(Opened()),
    st.builds(OpenFailed, st.just("no room")),
    st.builds(Wrote, st.integers(min_value=0, max_value=1000)),
    st.builds(WriteFailed, st.just("disk full")),
    st.builds(Dropped, st.integers(min_value=1, max_value=1000)),
    st.just(Finished()),
)


def _run(events: list[SpoolEvent]) -> list[SpoolState]:
    states = [SpoolState(cap_bytes=5000)]
    for event in events:
        states.append(advance(states[-1], event))
    return states


@given(st.lists(_events, max_size=30))
def test_spool_state_invariants(events: list[SpoolEvent]) -> None:
    states = _run(events)
    for before, after in itertools.pairwise(states):
        # A failure is never undone, and a failed spool is never available again.
        if before.failure is not None:
            assert after.failure == before.failure
            assert not after.available
        # A finished spool never changes.
        if before.finished:
            assert after == before
        # Written bytes only grow, and only while available.
        assert after.written_bytes >= before.written_bytes
        if after.written_bytes > before.written_bytes:
            assert before.available
        assert after.complete == (after.available and after.finished)
    final = states[-1]
    before_finish = events[: next((i for i, e in enumerate(events) if isinstance(e, Finished)), len(events))]
    if any(isinstance(e, (OpenFailed, WriteFailed)) for e in before_finish):
        assert not final.available
        assert not final.complete


@given(st.lists(_events, max_size=30), st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_spool_reference_rule_never_points_at_an_unsafe_file(
    events: list[SpoolEvent], exited: bool, drained: bool, big: bool, advertise: bool
) -> None:
    state = _run(events)[-1]
    view = SpoolView(
        state=state,
        path="p.log",
        process_exited=exited,
        stream_drained=drained,
        big_or_truncated=big,
        advertise=advertise,
    )
    fields = spool_fields(view)
    if fields.spool_path is not None:
        assert state.available
        assert advertise
        # A path for an exited session only once the spool is complete; a running one may be partial.
        assert fields.spool_complete == state.complete
        assert state.complete or not exited
        assert fields.spool_pending is None
    if fields.spool_pending:
        assert exited
        assert state.available
        assert not state.complete
        assert fields.spool_path is None
    if state.failure is not None:
        assert fields.spool_error == state.failure
        assert fields.spool_path is None
    if state.available and exited and not state.complete and advertise:
        assert fields.spool_pending


def test_spool_reference_cases() -> None:
    """The reference's unit cases (section 5.4) in one table."""
    ready = SpoolState(cap_bytes=100, opened=True, written_bytes=50)
    done = advance(ready, Finished())

    def fields(state: SpoolState, *, exited: bool, big: bool = True, drained: bool = False) -> SpoolFields:
        view = SpoolView(
            state=state,
            path="p.log",
            process_exited=exited,
            stream_drained=drained,
            big_or_truncated=big,
            advertise=True,
        )
        return spool_fields(view)

    assert fields(ready, exited=True) == SpoolFields(
        spool_complete=False, spool_pending=True, spool_pending_reason=HELD_OPEN
    )
    assert fields(ready, exited=False) == SpoolFields(
        spool_path="p.log", spool_complete=False, spooled_bytes=50
    )
    assert fields(done, exited=True, drained=True) == SpoolFields(
        spool_path="p.log", spool_complete=True, spooled_bytes=50
    )
    assert fields(done, exited=True, big=False, drained=True) == SpoolFields()
    capped = advance(advance(ready, Dropped(7)), Finished())
    assert fields(capped, exited=True, big=False, drained=True).spool_truncated_bytes == 7


def test_room_under_the_cap_and_retention_age() -> None:
    assert (room(10, 8, 5), room(10, 8, 1), room(10, 12, 1)) == (2, 1, 0)
    assert expired(0, 8 * 24 * 3600)
    assert not expired(0, 6 * 24 * 3600)


# --- result objects -------------------------------------------------------------------------------


def _session(**overrides: object) -> SessionView:
    base: dict[str, object] = {
        "session_id": "run-1a2b3c4d",
        "command": "cargo build",
        "backend": "pipe",
        "working_directory": ".",
        "returncode": None,
        "signal_name": None,
        "drained": False,
        "total_output_bytes": 11,
        "output_truncated": False,
        "spool": SpoolState(cap_bytes=100, opened=True, written_bytes=11),
        "spool_path": ".vtcode/context/tool_outputs/run-1a2b3c4d.log",
        "spool_advertise": True,
        "spool_threshold": 8192,
    }
    base.update(overrides)
    return SessionView(**base)  # type: ignore[arg-type]


def test_running_result_steers_to_wait() -> None:
    """The reference's `build_exec_response_steers_still_running_to_wait_action`."""
    result = build_result(_session(), CallView("start", 10.0, Preview("compiling…\n")))
    assert result.is_exited is False
    assert result.process_id == "run-1a2b3c4d"
    assert result.next_wait_args is not None
    assert result.next_wait_args.wait_timeout_seconds == 600
    assert result.next_action_hint is not None
    assert "wait" in result.next_action_hint
    assert result.spool_path is None  # small output keeps the spool internal


def test_exited_result_skips_continuation_and_reports_signals() -> None:
    """Acceptance 19 [I]: a signal death is exit_code -1 plus the signal's name."""
    spool = SpoolState(cap_bytes=100, opened=True, written_bytes=11, finished=True)
    session = _session(returncode=-9, signal_name="SIGKILL", drained=True, spool=spool)
    result = build_result(session, CallView("wait", 1.0, Preview("")))
    assert (result.exit_code, result.signal, result.next_wait_args, result.next_continue_args) == (
        -1,
        "SIGKILL",
        None,
        None,
    )
