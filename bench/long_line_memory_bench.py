"""Peak memory of `read_file` and `grep_files` on a file that is one 200 MB line (minified, a dump).

Each case runs in a fresh interpreter that imports the tools first; its peak RSS is the kernel's
VmHWM (ru_maxrss would carry the parent's peak across fork and exec). Baselines measured in the same
run: the interpreter with the tools imported and nothing done, and a plain `open(...).read()` of the
file. For the ripgrep engine, the peak of its rg processes is reported too (RUSAGE_CHILDREN; an
upper bound, as it includes the interpreter's own peak at the moment rg was started).

Target: every vtcode case within 100 MB, whatever the file size.
Run: .venv/bin/python bench/long_line_memory_bench.py [--size-mb N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = """
import asyncio, json, resource, sys
from pathlib import Path
from vtcode.tools.base import ToolContext
from vtcode.tools.grep_files import GrepFilesTool
from vtcode.tools.read_file import ReadFileTool
workspace, case, rg = Path(sys.argv[1]), sys.argv[2], sys.argv[3] or None
size = 0
if case == "plain read":
    size = len((workspace / "big.txt").read_bytes())
elif case != "baseline":
    tool, arguments = {
        "read_file": (ReadFileTool(), {"path": "big.txt"}),
        "grep_files (python)": (GrepFilesTool(use_ripgrep=False), {"pattern": "needle"}),
        "grep_files (ripgrep)": (GrepFilesTool(ripgrep=rg), {"pattern": "needle"}),
    }[case]
    outcome = asyncio.run(tool.run(arguments, ToolContext(workspace=workspace)))
    size = len(outcome.content.encode())
status = Path("/proc/self/status").read_text()
peak_kb = int(next(l.split()[1] for l in status.splitlines() if l.startswith("VmHWM:")))
children_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"peak_kb": peak_kb, "children_kb": children_kb, "output_bytes": size}))
"""

CASES = ["baseline", "plain read", "read_file", "grep_files (python)", "grep_files (ripgrep)"]


def _write_one_line_file(path: Path, size: int) -> None:
    block = b"x" * (1 << 20)
    with path.open("wb") as handle:
        for _ in range(size // 2 // len(block)):
            handle.write(block)
        handle.write(b"needle")
        for _ in range(size // 2 // len(block)):
            handle.write(block)
        handle.write(b"\n")


def _measure(workspace: Path, case: str, rg: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(workspace), case, rg],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, int] = json.loads(done.stdout)
    return result


def main() -> None:
    """Generate the file, run each case in its own interpreter, print peaks and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=200)
    args = parser.parse_args()
    if not Path("/proc/self/status").exists():
        sys.exit("this benchmark reads peak memory from Linux /proc")
    rg = shutil.which("rg", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        _write_one_line_file(workspace / "big.txt", args.size_mb << 20)
        print(f"one line of {args.size_mb} MB; peak RSS (VmHWM) per case")
        baseline = 0
        for case in CASES:
            if case.endswith("(ripgrep)") and rg is None:
                print(f"{case:<22} skipped: rg is not installed")
                continue
            result = _measure(workspace, case, rg or "")
            peak = result["peak_kb"]
            baseline = baseline or peak
            line = (
                f"{case:<22} {peak / 1024:7.1f} MB  {peak / baseline:5.2f}x baseline"
                f"  output {result['output_bytes']:,} bytes"
            )
            if case.endswith("(ripgrep)"):
                line += f"  rg peak <= {result['children_kb'] / 1024:.1f} MB"
            print(line)


if __name__ == "__main__":
    main()
