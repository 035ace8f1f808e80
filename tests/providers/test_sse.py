"""The SSE parser: line endings, multi-line data, comments, and arbitrary byte splits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vtcode.providers.sse import SseEvent, SseParser


def _parse(chunks: list[bytes]) -> list[SseEvent]:
    parser = SseParser()
    events = [e for chunk in chunks for e in parser.feed(chunk)]
    return events + parser.close()


def test_events_with_names_data_and_comments() -> None:
    raw = b": keep-alive\nevent: ping\ndata: {}\n\ndata: a\ndata: b\n\n"
    assert _parse([raw]) == [SseEvent("ping", "{}"), SseEvent(None, "a\nb")]


def test_crlf_and_cr_line_endings() -> None:
    raw = b"event: x\r\ndata: 1\r\n\r\ndata: 2\r\r"
    assert _parse([raw]) == [SseEvent("x", "1"), SseEvent(None, "2")]


def test_crlf_split_between_chunks_is_one_line_end() -> None:
    assert _parse([b"data: 1\r", b"\n\r", b"\ndata: 2\n\n"]) == [SseEvent(None, "1"), SseEvent(None, "2")]


def test_last_event_without_blank_line_is_flushed_at_close() -> None:
    assert _parse([b"data: tail"]) == [SseEvent(None, "tail")]


def test_multibyte_utf8_split_across_chunks() -> None:
    raw = "data: héllo ✓ 世界\n\n".encode()
    chunks = [raw[i : i + 1] for i in range(len(raw))]
    assert _parse(chunks) == [SseEvent(None, "héllo ✓ 世界")]


def test_event_name_without_data_is_not_dispatched() -> None:
    assert _parse([b"event: lonely\n\ndata: x\n\n"]) == [SseEvent(None, "x")]


_payload = st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\r\n"), max_size=30)


@given(
    st.lists(st.tuples(st.none() | st.sampled_from(["a", "message_start"]), _payload), max_size=8),
    st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=40),
    st.sampled_from([b"\n", b"\r\n"]),
)
def test_any_split_gives_the_same_events(
    frames: list[tuple[str | None, str]], cuts: list[int], newline: bytes
) -> None:
    raw = b"".join(
        ((f"event: {name}".encode() + newline) if name else b"")
        + f"data: {data}".encode()
        + newline
        + newline
        for name, data in frames
    )
    chunks: list[bytes] = []
    position = 0
    for size in cuts * (len(raw) // max(1, sum(cuts)) + 1):
        if position >= len(raw):
            break
        chunks.append(raw[position : position + size])
        position += size
    expected = [SseEvent(name, data) for name, data in frames]
    assert _parse(chunks) == expected
    assert _parse([raw]) == expected
