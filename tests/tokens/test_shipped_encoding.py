"""The cl100k_base encoding ships inside vtcode and loads with no network and no cache directory."""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

import pytest
import tiktoken

from vtcode.tokens.encoding import (
    ENCODING_FILE,
    ENCODING_SHA256,
    SLICE_CHARS,
    EncodingFileError,
    bpe_counter,
    encoding_from_bytes,
    shipped_encoding,
    slices,
    text_counter,
)


def _shipped_bytes() -> bytes:
    return resources.files("vtcode.tokens").joinpath("data", ENCODING_FILE).read_bytes()


def test_the_shipped_file_is_the_one_tiktoken_pins_for_cl100k_base() -> None:
    pinned = Path(tiktoken.__file__).parent.parent / "tiktoken_ext" / "openai_public.py"
    assert ENCODING_SHA256 in pinned.read_text()
    assert hashlib.sha256(_shipped_bytes()).hexdigest() == ENCODING_SHA256


def test_counts_match_the_reference_anchors() -> None:
    count = text_counter()
    assert (count("Hello world"), count("a"), count("")) == (2, 1, 0)
    # Special-token text is counted as ordinary text, never as a control token.
    assert count("<|endoftext|>") > 1


def test_loading_writes_no_cache_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # tiktoken's own loader caches under the temp dir; ours reads package data only.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "cache"))
    encoding = encoding_from_bytes(_shipped_bytes())
    assert encoding.encode_ordinary("def main():") == shipped_encoding().encode_ordinary("def main():")
    assert list(tmp_path.iterdir()) == []


def test_an_altered_file_is_refused() -> None:
    data = bytearray(_shipped_bytes())
    data[10] ^= 1
    with pytest.raises(EncodingFileError, match="sha256"):
        encoding_from_bytes(bytes(data))


def test_long_text_is_counted_in_slices_cut_at_whitespace() -> None:
    encoding = shipped_encoding()
    count = bpe_counter(encoding)
    text = ("let x = compute(value, other); // note\n" * 2_000)[: SLICE_CHARS * 5 + 17]
    assert "".join(slices(text)) == text
    assert all(len(part) <= SLICE_CHARS for part in slices(text))
    assert count(text) == len(encoding.encode_ordinary(text))
    blob = "x" * (SLICE_CHARS * 3 + 5)
    assert [len(part) for part in slices(blob)] == [SLICE_CHARS] * 3 + [5]
    assert abs(count(blob) - len(encoding.encode_ordinary(blob))) <= 3
