"""Start-up of the released one-file `vtcode --version` against the installed package's, and the sizes.

The baseline is the installed console script (`.venv/bin/vtcode`) measured in the same run, interleaved
with the candidates so machine noise hits all alike. `--also NAME=PATH` adds other builds to compare
(e.g. a shiv zipapp or a PyInstaller one-folder build).
Run: .venv/bin/python bench/release_startup.py dist/vtcode-<version>-<os>-<arch>.tar.gz [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

INSTALLED = Path(sys.executable).with_name("vtcode")
# What a user's shell would have: no venv on PATH; an empty HOME is fine for --version.
CLEAN_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": ""}


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=CLEAN_ENV, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("archive", type=Path)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--also", action="append", default=[], metavar="NAME=PATH")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(args.archive) as tar:
            tar.extractall(tmp, filter="data")
        released = Path(tmp) / "vtcode"
        candidates = {"installed package (baseline)": [str(INSTALLED), "--version"]}
        candidates["release one-file"] = [str(released), "--version"]
        for spec in args.also:
            name, _, path = spec.partition("=")
            candidates[name] = [path, "--version"]
        samples: dict[str, list[float]] = {name: [] for name in candidates}
        for argv in candidates.values():
            timed(argv)  # warm the page cache
        for _ in range(args.runs):
            for name, argv in candidates.items():
                samples[name].append(timed(argv))
        base = statistics.median(samples["installed package (baseline)"])
        print(f"vtcode --version, median of {args.runs} runs (ratio to the installed package):")
        for name, values in samples.items():
            median = statistics.median(values)
            print(f"  {name:32s} {median * 1000:7.1f} ms  x{median / base:5.1f}")
        print(f"archive {args.archive.name}: {args.archive.stat().st_size / 1e6:.1f} MB")
        print(f"executable vtcode: {released.stat().st_size / 1e6:.1f} MB")
        for spec in args.also:
            name, _, path = spec.partition("=")
            print(f"{name}: {Path(path).stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
