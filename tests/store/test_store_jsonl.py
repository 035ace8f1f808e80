"""The append-only JSONL log: checkpoints, torn tails, corruption in the middle, one writer."""

from __future__ import annotations

from pathlib import Path

import pytest

from vtcode.protocol.errors import StoreError
from vtcode.protocol.messages import UserMessage
from vtcode.store import JsonlLoad, JsonlLog, MessageRecord
from vtcode.store.history import encode_record, history_log


def record(seq: int) -> MessageRecord:
    return MessageRecord(seq=seq, ts=100.0 + seq, message=UserMessage(content=f"message {seq}"))


def line(seq: int) -> bytes:
    return encode_record(record(seq)) + b"\n"


def test_missing_file_is_an_empty_log(tmp_path: Path) -> None:
    assert history_log(tmp_path / "history.jsonl").load() == JsonlLoad([], [])


def test_append_then_load_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    with history_log(path) as log:
        log.append([record(1), record(2)])
        log.append([record(3)], sync=False)
        log.append([])

    assert path.read_bytes() == line(1) + line(2) + line(3)
    assert history_log(path).load() == JsonlLoad([record(1), record(2), record(3)], [])


@pytest.mark.parametrize(
    ("tail", "notice"),
    [
        pytest.param(
            line(3)[:25],
            "ignored an incomplete last line (line 3, 25 bytes) left by an interrupted write",
            id="no-trailing-newline",
        ),
        pytest.param(
            line(3)[:-1],
            f"ignored an incomplete last line (line 3, {len(line(3)) - 1} bytes) "
            "left by an interrupted write",
            id="complete-json-without-newline",
        ),
        pytest.param(
            b"\x00" * 40 + b"\n",
            "ignored a corrupt last line (line 3, 41 bytes, not JSON); "
            "it is dropped when the session continues",
            id="zero-filled-line",
        ),
        pytest.param(
            b'{"type":"mess\n',
            "ignored a corrupt last line (line 3, 14 bytes, not JSON); "
            "it is dropped when the session continues",
            id="invalid-json-with-newline",
        ),
        pytest.param(
            b"garbage\n",
            "ignored a corrupt last line (line 3, 8 bytes, not JSON); "
            "it is dropped when the session continues",
            id="garbage-with-newline",
        ),
    ],
)
def test_a_bad_last_line_is_ignored_with_a_notice_saying_what_it_is(
    tmp_path: Path, tail: bytes, notice: str
) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes(line(1) + line(2) + tail)

    assert history_log(path).load() == JsonlLoad([record(1), record(2)], [f"{path}: {notice}"])


@pytest.mark.parametrize(
    "tail",
    [line(3)[:25], line(3)[:-1], b"\x00" * 40 + b"\n", b'{"type":"mess\n'],
    ids=["partial", "no-newline", "zeros", "invalid-json"],
)
def test_append_after_torn_tail_starts_on_a_fresh_line(tmp_path: Path, tail: bytes) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes(line(1) + line(2) + tail)

    with history_log(path) as log:
        log.append([record(3)])

    assert path.read_bytes() == line(1) + line(2) + line(3)
    assert history_log(path).load() == JsonlLoad([record(1), record(2), record(3)], [])


def test_append_after_torn_first_line(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes(line(1)[:10])

    with history_log(path) as log:
        log.append([record(1)])

    assert path.read_bytes() == line(1)


def test_invalid_json_in_the_middle_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes(line(1) + b'{"type":"mess\n' + line(3))

    with pytest.raises(StoreError) as caught:
        history_log(path).load()

    assert caught.value.message.startswith(f"{path}:2: invalid JSON: ")
    assert caught.value.hint == (
        "the session log is damaged; fix or remove that line, or start a new session"
    )


def test_valid_json_that_is_not_a_record_is_an_error_even_on_the_last_line(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_bytes(line(1) + b'{"type":"message","seq":2,"ts":1.0,"message":{"role":"robot"}}\n')

    with pytest.raises(StoreError) as caught:
        history_log(path).load()

    assert caught.value.message.startswith(f"{path}:2: invalid record: ")
    assert "robot" in caught.value.message


def test_a_second_writer_is_refused_until_the_first_closes(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    first = history_log(path)
    first.append([record(1)])
    second = history_log(path)

    with pytest.raises(StoreError) as caught:
        second.append([record(2)])
    assert caught.value.message == f"{path} is being written by another vtcode process"

    first.close()
    second.append([record(2)])
    second.close()
    assert history_log(path).load().records == [record(1), record(2)]


def test_reading_does_not_need_the_writer_lock(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    with history_log(path) as log:
        log.append([record(1)])
        assert history_log(path).load().records == [record(1)]


def test_generic_over_any_codec(tmp_path: Path) -> None:
    log: JsonlLog[str] = JsonlLog(
        tmp_path / "words.jsonl", encode=lambda s: f'"{s}"'.encode(), decode=lambda b: b.decode()
    )
    with log:
        log.append(["a", "b"])
    assert log.load() == JsonlLoad(['"a"', '"b"'], [])
