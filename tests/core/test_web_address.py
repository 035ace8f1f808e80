"""The address and URL checks of web_fetch, as pure functions."""

from __future__ import annotations

import ipaddress

import pytest

from vtcode.core.web_address import (
    Refused,
    WebTarget,
    address_refusal,
    https_first,
    literal_refusal,
    parse_url,
    redirect_target,
)


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("::1", "loopback"),
        ("10.0.0.5", "private-network"),
        ("172.16.3.4", "private-network"),
        ("192.168.1.1", "private-network"),
        ("fd12:3456::1", "private-network"),
        ("169.254.1.1", "link-local"),
        ("fe80::1", "link-local"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("100.127.255.254", "carrier-grade NAT"),
        ("169.254.169.254", "cloud metadata"),
        ("fd00:ec2::254", "cloud metadata"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "multicast"),
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:169.254.169.254", "cloud metadata"),
        ("::ffff:10.0.0.5", "private-network"),
        ("64:ff9b::a00:5", "private-network"),
        ("2002:7f00:1::", "loopback"),
        ("240.0.0.1", "240.0.0.1 is a"),
        ("192.0.2.7", "192.0.2.7 is a"),
    ],
)
def test_non_public_addresses_are_refused_with_their_kind(address: str, why: str) -> None:
    reason = address_refusal(ipaddress.ip_address(address))
    assert reason is not None
    assert why in reason


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_pass(address: str) -> None:
    assert address_refusal(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("file:///etc/passwd", "`file:` URLs are not fetched"),
        ("data:text/html,<h1>x</h1>", "`data:` URLs are not fetched"),
        ("ftp://example.com/x", "`ftp:` URLs are not fetched"),
        ("https://user:secret@example.com/", "credentials"),
        ("http:///path", "names no host"),
        ("http://example.com:99999/", "not a valid URL"),
    ],
)
def test_bad_urls_are_refused_with_a_reason(url: str, why: str) -> None:
    refused = parse_url(url)
    assert isinstance(refused, Refused)
    assert why in refused.reason


def test_urls_parse_to_host_port_and_target() -> None:
    assert parse_url("HTTPS://Docs.Python.org/3/library/?q=1") == WebTarget(
        "https", "docs.python.org", 443, "/3/library/?q=1"
    )
    assert parse_url("docs.python.org/3/") == WebTarget("https", "docs.python.org", 443, "/3/")
    assert parse_url("http://[::1]:8080") == WebTarget("http", "::1", 8080, "/")
    assert parse_url("http://bücher.example/") == WebTarget("http", "xn--bcher-kva.example", 80, "/")
    assert parse_url("https://x.org/a b/é?q=a b&r=%2F") == WebTarget(
        "https", "x.org", 443, "/a%20b/%C3%A9?q=a%20b&r=%2F"
    )


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://127.0.0.1/", "loopback"),
        ("http://[::1]/", "loopback"),
        ("http://169.254.169.254/latest/meta-data/", "cloud metadata"),
        ("http://[::ffff:169.254.169.254]/", "cloud metadata"),
        ("http://localhost:8000/", "loopback name"),
    ],
)
def test_urls_naming_refused_addresses_are_refused_before_any_lookup(url: str, why: str) -> None:
    target = parse_url(url)
    assert isinstance(target, WebTarget)
    refused = literal_refusal(target)
    assert refused is not None
    assert why in refused.reason


def test_http_on_the_default_port_is_tried_over_https_first() -> None:
    plain = WebTarget("http", "example.com", 80, "/a")
    assert https_first(plain) == WebTarget("https", "example.com", 443, "/a")
    assert https_first(WebTarget("http", "example.com", 8080, "/a")) is None
    assert https_first(WebTarget("https", "example.com", 443, "/a")) is None


def test_every_redirect_is_checked_like_the_first_url() -> None:
    page = WebTarget("https", "example.com", 443, "/docs/a")
    assert redirect_target(page, "b?x=1") == WebTarget("https", "example.com", 443, "/docs/b?x=1")
    metadata = redirect_target(page, "http://169.254.169.254/")
    assert isinstance(metadata, Refused)
    assert metadata.reason == (
        "the redirect to http://169.254.169.254/ is refused: 169.254.169.254 is a cloud metadata address"
    )
    local = redirect_target(page, "file:///etc/passwd")
    assert isinstance(local, Refused)
    assert "`file:` URLs are not fetched" in local.reason
