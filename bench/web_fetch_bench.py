"""web_fetch of a 1 MB page against `curl` of the same page, in the same run.

Both fetch from a server inside a private network namespace (web_fetch refuses loopback, so the page is
served on a public-looking address on that namespace's `lo`; `vtcode.testing.web_netns`). Measured:
time from the call to the tool's result (resolve-free IP URL, check, connect, download, convert, bound,
spool) for `raw`, `text` and `markdown`, against `curl -s -o /dev/null` of the same URL (a process start
included, as a person or a model running curl would pay it). Needs root (a network namespace).
Run: .venv/bin/python bench/web_fetch_bench.py [--runs 5] [--mb 1] [--file PAGE.html]
(`--file` serves a real page instead of the synthetic, tag-dense one.)
Target (issue 29): report the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from vtcode.testing.web_netns import Route, WebServer, network_namespace_problem, run_in_network_namespace
from vtcode.tools.base import ToolContext
from vtcode.tools.web_fetch import WebFetchTool

HOST = "93.184.216.34"
PORT = 8080  # not 80: no https-first attempt, so both sides make one request


def page(size: int) -> bytes:
    """An HTML page of about `size` bytes: sections of headings, paragraphs, lists, links and code."""
    section = (
        b"<h2>Section</h2><p>Some <b>bold</b> text with <a href='/x'>a link</a> and <code>code()</code>."
        b"</p><ul><li>one</li><li>two</li></ul><pre>def f():\n    return 1\n</pre>\n"
    )
    return b"<html><body>" + section * (size // len(section)) + b"</body></html>"


async def measure(body: bytes, runs: int, workspace: Path) -> dict[str, list[float]]:
    """Seconds per run for curl and for each web_fetch format."""
    server = WebServer({"/page": Route(body)})
    await server.start(HOST, PORT)
    url = f"http://{HOST}:{PORT}/page"
    tool = WebFetchTool()
    ctx = ToolContext(workspace=workspace)
    times: dict[str, list[float]] = {"curl": [], "raw": [], "text": [], "markdown": []}
    try:
        for _ in range(runs):
            started = time.perf_counter()
            curl = await asyncio.create_subprocess_exec("curl", "-s", "-o", "/dev/null", url)
            assert await curl.wait() == 0
            times["curl"].append(time.perf_counter() - started)
            for form in ("raw", "text", "markdown"):
                started = time.perf_counter()
                outcome = await tool.run({"url": url, "format": form}, ctx)
                times[form].append(time.perf_counter() - started)
                assert not outcome.is_error, outcome.content[:300]
    finally:
        await server.close()
    return times


def main() -> None:
    """Print the median times and their ratios to curl."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--file", type=Path, help="serve this HTML file instead of the synthetic page")
    args = parser.parse_args()
    problem = network_namespace_problem()
    if problem is not None:
        raise SystemExit(f"cannot run: {problem}")
    subprocess.run(["curl", "--version"], check=True, capture_output=True)
    body = args.file.read_bytes() if args.file else page(int(args.mb * 1024 * 1024))
    with tempfile.TemporaryDirectory() as tmp:
        times = run_in_network_namespace([HOST], lambda: measure(body, args.runs, Path(tmp)))
    baseline = statistics.median(times["curl"])
    print(f"page: {len(body)} bytes of HTML, {args.runs} runs, medians")
    print(f"curl -s -o /dev/null       {baseline * 1000:8.1f} ms   1.00x")
    for form in ("raw", "text", "markdown"):
        median = statistics.median(times[form])
        print(f"web_fetch format={form:<9} {median * 1000:8.1f} ms   {median / baseline:5.2f}x")


if __name__ == "__main__":
    main()
