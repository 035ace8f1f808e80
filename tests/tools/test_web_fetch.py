"""web_fetch against real servers in a private network namespace (public-looking addresses on its `lo`).

The tool refuses loopback, so its servers live on addresses such as 93.184.216.34 inside a namespace
the test thread creates (`vtcode.testing.web_netns`): the real checks run and nothing can leave.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from vtcode.providers.web_http import FetchLimits
from vtcode.testing.web_netns import Route, WebServer, network_namespace_problem, run_in_network_namespace
from vtcode.tools.base import ToolContext, ToolOutcome
from vtcode.tools.web_fetch import WebFetchTool

PUBLIC = "93.184.216.34"
_PROBLEM = network_namespace_problem()
needs_netns = pytest.mark.skipif(_PROBLEM is not None, reason=_PROBLEM or "")

PAGE = b"""<!doctype html><html><head><title>Guide</title><style>body{color:red}</style>
<script>alert('x')</script></head><body><h1>Install</h1><p>Run <code>pip install vtcode</code> and
read <a href="/docs">the docs</a>.</p><ul><li>fast</li><li>safe</li></ul></body></html>"""


def _fetch_in_netns(
    addresses: Sequence[str],
    routes: dict[str, Route],
    arguments: dict[str, object],
    workspace: Path,
    *,
    resolver_answers: Sequence[str] | None = None,
    limits: FetchLimits | None = None,
) -> tuple[ToolOutcome, WebServer]:
    server = WebServer(routes)

    async def resolver(host: str, port: int) -> Sequence[str]:
        assert resolver_answers is not None
        return resolver_answers

    async def main() -> ToolOutcome:
        await server.start(addresses[0], 80)
        try:
            tool = WebFetchTool(resolver=resolver, limits=limits or FetchLimits())
            return await tool.run(arguments, ToolContext(workspace=workspace))
        finally:
            await server.close()

    return run_in_network_namespace(addresses, main), server


@needs_netns
def test_an_html_page_is_converted_to_markdown_and_marked_untrusted(workspace: Path) -> None:
    outcome, server = _fetch_in_netns(
        [PUBLIC],
        {"/guide": Route(PAGE)},
        {"url": "http://docs.example.test/guide"},
        workspace,
        resolver_answers=[PUBLIC],
    )
    assert not outcome.is_error, outcome.content
    assert server.paths == ["/guide"]
    assert (
        "# Install\n\nRun `pip install vtcode` and\nread [the docs](/docs).\n\n- fast\n- safe"
        in outcome.content
    )
    assert "alert" not in outcome.content
    assert "color:red" not in outcome.content
    assert outcome.content.startswith("The text between the markers was fetched from the web: untrusted")
    assert '<untrusted-web-content url="http://docs.example.test/guide" format="markdown">' in outcome.content
    assert "https://docs.example.test/guide could not be reached" in outcome.content


@needs_netns
def test_a_40_mb_page_gives_a_bounded_result_and_a_spool_path(workspace: Path) -> None:
    line = b"word " * 19 + b"end\n"
    body = line * (40 * 1024 * 1024 // len(line))
    outcome, _ = _fetch_in_netns(
        [PUBLIC],
        {"/big": Route(body, "text/plain")},
        {"url": f"http://{PUBLIC}/big", "max_chars": 5000},
        workspace,
    )
    assert not outcome.is_error, outcome.content[:500]
    assert len(outcome.content) < 6500
    spool = outcome.extra["spool"]
    assert spool.startswith(".vtcode/context/tool_outputs/web_fetch_")
    assert f"the whole text is in {spool}" in outcome.content
    assert "the download stopped at the 10 MB cap" in outcome.content
    saved = (workspace / spool).read_bytes()
    assert saved == body[: 10 * 1024 * 1024]


@needs_netns
def test_raw_returns_the_exact_bytes(workspace: Path) -> None:
    body = "<p>café &amp; <b>bold</b></p>\n\tline two\r\n".encode()
    outcome, _ = _fetch_in_netns(
        [PUBLIC], {"/raw": Route(body)}, {"url": f"http://{PUBLIC}/raw", "format": "raw"}, workspace
    )
    assert f'format="raw">\n{body.decode()}\n</untrusted-web-content>' in outcome.content
    cut, _ = _fetch_in_netns(
        [PUBLIC],
        {"/raw": Route(body)},
        {"url": f"http://{PUBLIC}/raw", "format": "raw", "max_chars": 5},
        workspace,
    )
    assert (workspace / cut.extra["spool"]).read_bytes() == body


@needs_netns
def test_a_name_resolving_to_a_private_address_is_refused_without_connecting(workspace: Path) -> None:
    outcome, server = _fetch_in_netns(
        ["10.0.0.5"],
        {"/": Route(b"secret")},
        {"url": "http://intranet.example.test/"},
        workspace,
        resolver_answers=["10.0.0.5"],
    )
    assert outcome.is_error
    assert outcome.content == (
        "web_fetch refused or failed: https://intranet.example.test/ is refused: intranet.example.test "
        "resolves to 10.0.0.5, 10.0.0.5 is a private-network address"
    )
    assert server.connections == 0


@needs_netns
def test_a_redirect_to_the_metadata_address_is_refused(workspace: Path) -> None:
    metadata = WebServer({"/": Route(b"credentials")})

    async def main() -> ToolOutcome:
        page = WebServer({"/": Route(b"", status=302, headers={"Location": "http://169.254.169.254/"})})
        await page.start(PUBLIC, 8080)
        await metadata.start("169.254.169.254", 80)
        try:
            return await WebFetchTool().run(
                {"url": f"http://{PUBLIC}:8080/"}, ToolContext(workspace=workspace)
            )
        finally:
            await page.close()
            await metadata.close()

    outcome = run_in_network_namespace([PUBLIC, "169.254.169.254"], main)
    assert outcome.is_error
    assert outcome.content == (
        "web_fetch refused or failed: the redirect to http://169.254.169.254/ is refused: "
        "169.254.169.254 is a cloud metadata address"
    )
    assert metadata.connections == 0


@pytest.mark.parametrize("host", ["127.0.0.1", "[::1]"])
async def test_loopback_urls_are_refused_without_connecting(workspace: Path, host: str) -> None:
    server = WebServer({"/": Route(b"local secret")})
    port = await server.start(host.strip("[]"))
    try:
        outcome = await WebFetchTool().run(
            {"url": f"http://{host}:{port}/"}, ToolContext(workspace=workspace)
        )
    finally:
        await server.close()
    assert outcome.is_error
    address = host.strip("[]")
    assert outcome.content == (
        f"web_fetch refused or failed: http://{host}:{port}/ is refused: {address} is a loopback address"
    )
    assert server.connections == 0


@pytest.mark.parametrize("url", ["file:///etc/passwd", "data:text/plain,hello"])
async def test_file_and_data_urls_are_refused(workspace: Path, url: str) -> None:
    outcome = await WebFetchTool().run({"url": url}, ToolContext(workspace=workspace))
    scheme = url.split(":", 1)[0]
    assert outcome.is_error
    assert f"`{scheme}:` URLs are not fetched" in outcome.content


@needs_netns
def test_a_same_host_redirect_is_followed_and_another_host_is_only_reported(workspace: Path) -> None:
    other = WebServer({"/": Route(b"<p>elsewhere</p>")})

    async def main() -> tuple[ToolOutcome, ToolOutcome]:
        page = WebServer(
            {
                "/old": Route(b"", status=301, headers={"Location": "/new"}),
                "/new": Route(b"<p>moved here</p>"),
                "/away": Route(b"", status=302, headers={"Location": "http://93.184.216.35/"}),
            }
        )
        await page.start(PUBLIC, 8080)
        await other.start("93.184.216.35", 80)
        tool, ctx = WebFetchTool(), ToolContext(workspace=workspace)
        try:
            return (
                await tool.run({"url": f"http://{PUBLIC}:8080/old"}, ctx),
                await tool.run({"url": f"http://{PUBLIC}:8080/away"}, ctx),
            )
        finally:
            await page.close()
            await other.close()

    moved, away = run_in_network_namespace([PUBLIC, "93.184.216.35"], main)
    assert "moved here" in moved.content
    assert f'url="http://{PUBLIC}:8080/new"' in moved.content
    assert not away.is_error
    assert away.content == (
        f"http://{PUBLIC}:8080/away redirects to another host: http://93.184.216.35/ (not followed)\n"
        "call web_fetch with http://93.184.216.35/ to read it (its host is approved apart)"
    )
    assert other.connections == 0


@needs_netns
def test_gzip_is_decoded_and_binary_types_are_refused(workspace: Path) -> None:
    import gzip

    routes = {
        "/z": Route(gzip.compress(b"plain words " * 100), "text/plain", headers={"Content-Encoding": "gzip"}),
        "/png": Route(b"\x89PNG\r\n", "image/png"),
    }
    zipped, _ = _fetch_in_netns([PUBLIC], routes, {"url": f"http://{PUBLIC}/z"}, workspace)
    assert ("plain words " * 100) in zipped.content
    png, _ = _fetch_in_netns([PUBLIC], routes, {"url": f"http://{PUBLIC}/png"}, workspace)
    assert png.is_error
    assert png.content == (
        f"web_fetch refused or failed: http://{PUBLIC}/png: the server sent `image/png`, which is not text "
        "web_fetch reads (HTML, plain text, JSON, XML)"
    )
