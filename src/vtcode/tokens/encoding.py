"""The cl100k_base counter, built from the encoding file shipped with vtcode and checked against its hash.

tiktoken's own `get_encoding` downloads the file on first use (and caches it under the temp directory), so
an offline machine could never count tokens. We parse the same file ourselves from package data; the hash is
the one tiktoken itself pins for cl100k_base (`tiktoken_ext/openai_public.py`), so the ranks are
byte-identical to what `tiktoken.get_encoding("cl100k_base")` would load.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import logging
from typing import TYPE_CHECKING

from vtcode.core.tokens import TextCounter, byte_heuristic_tokens

if TYPE_CHECKING:
    import tiktoken

log = logging.getLogger(__name__)

ENCODING_NAME = "cl100k_base"
ENCODING_FILE = "cl100k_base.tiktoken"
# The sha256 tiktoken 0.14.0 pins for this file; a corrupt or swapped file is refused, not half-used.
ENCODING_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# The pre-tokenization pattern and special tokens of cl100k_base, as tiktoken defines them.
_PAT_STR = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|"""
    r"""\s*[\r\n]|\s+(?!\S)|\s"""
)
_SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


class EncodingFileError(ValueError):
    """The shipped encoding file is missing, altered or unreadable."""


def parse_ranks(data: bytes) -> dict[bytes, int]:
    """The mergeable ranks of a `.tiktoken` file (`base64-token rank` per line), after the hash check."""
    digest = hashlib.sha256(data).hexdigest()
    if digest != ENCODING_SHA256:
        raise EncodingFileError(f"{ENCODING_FILE}: sha256 {digest}, expected {ENCODING_SHA256}")
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        if not line:
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
        except ValueError as error:
            raise EncodingFileError(f"{ENCODING_FILE}:{number}: not `token rank`") from error
    return ranks


def encoding_from_bytes(data: bytes) -> tiktoken.Encoding:
    """A cl100k_base encoding from the bytes of its `.tiktoken` file."""
    # Imported on the first count, not on the way to a session's first request (~10 ms).
    import tiktoken

    return tiktoken.Encoding(
        name=ENCODING_NAME,
        pat_str=_PAT_STR,
        mergeable_ranks=parse_ranks(data),
        special_tokens=_SPECIAL_TOKENS,
    )


@functools.cache
def shipped_encoding() -> tiktoken.Encoding:
    """The encoding built from the file inside the installed package (read once per process)."""
    from importlib import resources  # with the first count, not at start-up

    try:
        data = resources.files("vtcode.tokens").joinpath("data", ENCODING_FILE).read_bytes()
    except OSError as error:
        raise EncodingFileError(f"{ENCODING_FILE}: {error}") from error
    return encoding_from_bytes(data)


# BPE merging is quadratic in the length of one pre-tokenized piece, and a run without spaces (base64, a
# minified bundle, 'x' * 300_000) is one piece: 300 KB took 0.5 s in one call. Long text is counted in
# slices, cut after a newline or space where one is near, so ordinary text counts as it would whole.
SLICE_CHARS = 8_192
_CUT_SEARCH = 512


def slices(text: str) -> list[str]:
    """`text` in consecutive parts of at most `SLICE_CHARS`, cut at whitespace when one is near the end."""
    parts: list[str] = []
    start = 0
    while len(text) - start > SLICE_CHARS:
        end = start + SLICE_CHARS
        cut = max(text.rfind("\n", end - _CUT_SEARCH, end), text.rfind(" ", end - _CUT_SEARCH, end))
        end = cut + 1 if cut > start else end
        parts.append(text[start:end])
        start = end
    parts.append(text[start:])
    return parts


def bpe_counter(encoding: tiktoken.Encoding) -> TextCounter:
    """A counter that encodes text as ordinary text (special-token strings count as the text they are)."""

    def count(text: str) -> int:
        if len(text) <= SLICE_CHARS:
            return len(encoding.encode_ordinary(text)) if text else 0
        return sum(len(encoding.encode_ordinary(part)) for part in slices(text))

    return count


@functools.cache
def text_counter() -> TextCounter:
    """The process-wide text counter: BPE when the shipped file loads, else the bytes/4 heuristic.

    A broken install must not stop a session: estimates get coarser (reference section 1.1's fallback) and
    the reason goes to the log once.
    """
    try:
        return bpe_counter(shipped_encoding())
    except EncodingFileError as error:
        log.warning("token estimates fall back to bytes/4: %s", error)
        return byte_heuristic_tokens
