"""An interrupt that lands as bytes arrive still cancels the read (Python 3.11's `wait_for` dropped it)."""

from __future__ import annotations

import asyncio

import pytest

from vtcode.providers.plain_http import _Wire


async def test_a_cancel_that_meets_arriving_bytes_is_not_lost() -> None:
    reader = asyncio.StreamReader()
    wire = _Wire(reader, read_timeout=30.0)
    read = asyncio.create_task(wire._read())
    await asyncio.sleep(0)  # the read waits for bytes
    # The bytes and the interrupt arrive in the same loop iteration, as a stream chunk and Esc can.
    reader.feed_data(b"data: {}\n\n")
    read.cancel()
    with pytest.raises(asyncio.CancelledError):
        await read
