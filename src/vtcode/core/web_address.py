"""Which URLs and addresses `web_fetch` may reach: the SSRF checks, as pure functions.

A fetch tool runs in vtcode's own process, outside the command sandbox, so it is a door into whatever
the user's machine can reach: its loopback services, the intranet, a cloud's metadata service. Only
public (globally routable) addresses pass. Names are resolved by the caller, every address a name gives
is checked here, and the connection goes to a checked address (no second lookup that could answer
differently). IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import quote, urljoin, urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Instance metadata services: AWS/GCP/Azure/OpenStack, AWS over IPv6, ECS task credentials, Alibaba.
_METADATA = frozenset(
    ipaddress.ip_address(text)
    for text in ("169.254.169.254", "fd00:ec2::254", "169.254.170.2", "100.100.100.200")
)
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_SCHEMES = ("http", "https")
MAX_URL_CHARS = 8192
_PATH_SAFE = "/%:@!$&'()*+,;=~-._?[]"


@dataclass(frozen=True)
class WebTarget:
    """A URL `web_fetch` may try: scheme, host (lower case, IDNA-encoded), port and request target."""

    scheme: str
    host: str
    port: int
    target: str

    @property
    def url(self) -> str:
        """The URL again, without a default port."""
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = "" if self.port == default else f":{self.port}"
        return f"{self.scheme}://{host}{port}{self.target}"

    @property
    def literal(self) -> IPAddress | None:
        """The host as an address, when the URL names one instead of a name."""
        return parse_address(self.host)


@dataclass(frozen=True)
class Refused:
    """Why a URL or an address is not fetched, as a sentence for the model."""

    reason: str


def parse_address(text: str) -> IPAddress | None:
    """`text` as an IP address (an IPv6 zone is dropped), or None when it is a name."""
    try:
        return ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None


def address_refusal(address: IPAddress) -> str | None:
    """Why `address` must not be connected to, or None when it is a public address."""
    embedded = _embedded_ipv4(address)
    if embedded is not None:
        why = address_refusal(embedded)
        return None if why is None else f"{why} (carried in the IPv6 address {address})"
    if address in _METADATA:
        return f"{address} is a cloud metadata address"
    if address.is_unspecified:
        return f"{address} is the unspecified address"
    if address.is_loopback:
        return f"{address} is a loopback address"
    if address.is_link_local:
        return f"{address} is a link-local address"
    if isinstance(address, ipaddress.IPv4Address) and address in _CGNAT:
        return f"{address} is a carrier-grade NAT (shared) address"
    if address.is_multicast:
        return f"{address} is a multicast address"
    if address.is_private:
        return f"{address} is a private-network address"
    if address.is_reserved or not address.is_global:
        return f"{address} is not a public address"
    return None


def _embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.sixtofour


def parse_url(url: str) -> WebTarget | Refused:
    """The target `url` names, or why it is refused (scheme, credentials, a missing host)."""
    text = url.strip()
    if len(text) > MAX_URL_CHARS:
        return Refused(f"the URL is longer than {MAX_URL_CHARS} characters")
    if "://" not in text and ":" not in text.split("/", 1)[0]:
        text = f"https://{text}"  # a bare `docs.python.org/3/` means the https page
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        return Refused(f"`{url}` is not a valid URL: {exc}")
    scheme = parts.scheme.lower()
    if scheme not in _SCHEMES:
        shown = f"`{scheme}:` URLs" if scheme else "URLs without a scheme"
        return Refused(f"{shown} are not fetched: web_fetch reads only http:// and https:// pages")
    if parts.username is not None or parts.password is not None:
        return Refused("URLs with credentials (user:password@) are not fetched")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        return Refused(f"`{url}` names no host")
    if parse_address(host) is None:
        try:
            host = host.encode("idna").decode("ascii").lower()
        except UnicodeError:
            return Refused(f"`{host}` is not a valid host name")
    # Characters HTTP cannot carry as they are (spaces, non-ASCII) are percent-encoded; escapes stay.
    target = quote(parts.path or "/", safe=_PATH_SAFE) + (
        f"?{quote(parts.query, safe=_PATH_SAFE)}" if parts.query else ""
    )
    return WebTarget(scheme, host, port or (443 if scheme == "https" else 80), target)


def literal_refusal(target: WebTarget) -> Refused | None:
    """Why a URL that names an address (not a name) is refused, before anything is sent."""
    literal = target.literal
    if literal is None:
        if target.host == "localhost" or target.host.endswith(".localhost"):
            return Refused(f"{target.host} is a loopback name")
        return None
    why = address_refusal(literal)
    return None if why is None else Refused(why)


def https_first(target: WebTarget) -> WebTarget | None:
    """The https form of a plain-http URL on the default port, tried first; None when there is none."""
    if target.scheme != "http" or target.port != 80:
        return None
    return WebTarget("https", target.host, 443, target.target)


def redirect_target(current: WebTarget, location: str) -> WebTarget | Refused:
    """Where a redirect's `Location` leads from `current`, checked like the first URL."""
    followed = parse_url(urljoin(current.url, location.strip()))
    if isinstance(followed, Refused):
        return Refused(f"the redirect to `{location}` is refused: {followed.reason}")
    refused = literal_refusal(followed)
    if refused is not None:
        return Refused(f"the redirect to {followed.url} is refused: {refused.reason}")
    return followed
