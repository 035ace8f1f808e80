"""File tool write latency: dirfd-relative writes (`tools.beneath`) against the old path-based write.

Both sides write the same bytes to the same depth of directories in the same run, interleaved, so
machine noise hits both alike. "tool" is the whole `write_file` tool call (resolve, pre-image read,
write) on the new code; "path" and "dirfd" are the bare durable replace (temp file, fsync, rename,
directory fsync) by path, as vtcode did before, and through directory descriptors.
Run: .venv/bin/python bench/file_write_bench.py [--runs 400] [--depth 3] [--size 4096]
Target (sandbox issue): dirfd ≤ 1.1x path.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from vtcode.tools.base import ToolContext
from vtcode.tools.beneath import replace_file
from vtcode.tools.write_file import WriteFileTool


def _path_write(path: Path, data: bytes) -> None:
    """The path-based replace vtcode used before (tools/atomic_write.py): the baseline."""
    os.makedirs(path.parent, exist_ok=True)
    tmp = path.parent / f".{path.name[:64]}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    with contextlib.suppress(OSError):
        os.fsync(dir_fd)
    os.close(dir_fd)


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    """Measure and print medians and ratios against the path-based write."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--size", type=int, default=4096)
    args = parser.parse_args()
    data = b"x" * (args.size - 1) + b"\n"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(os.path.realpath(tmp))
        relative = "/".join(f"d{i}" for i in range(args.depth)) + "/file.txt"
        tool = WriteFileTool()
        ctx = ToolContext(workspace=root)
        content = data.decode()
        loop = asyncio.new_event_loop()
        sides: dict[str, Callable[[], object]] = {
            "path": lambda: _path_write(root / relative, data),
            "dirfd": lambda: replace_file(root, relative, data, mode=0o644),
            "tool": lambda: loop.run_until_complete(tool.run({"path": relative, "content": content}, ctx)),
        }
        samples: dict[str, list[float]] = {name: [] for name in sides}
        for write in sides.values():
            write()  # warm-up: directories exist, modules loaded
        for _ in range(args.runs):
            for name, write in sides.items():
                start = time.perf_counter()
                write()
                samples[name].append(time.perf_counter() - start)
        loop.close()
    base = _median_ms(samples["path"])
    print(f"write of {args.size} bytes at depth {args.depth}, {args.runs} runs (median):")
    for name in sides:
        median = _median_ms(samples[name])
        print(f"  {name:6s} {median:7.3f} ms  {median / base:5.2f}x path")


if __name__ == "__main__":
    main()
