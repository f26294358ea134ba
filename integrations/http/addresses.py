"""Which addresses a request may reach: the SSRF policy. A host is resolved here and every
address it resolves to is vetted (private, loopback, link-local, metadata, NAT64-wrapped ones are
refused) before the backend connects to that vetted address itself. Also the offline switch."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx
from django.conf import settings

from integrations.http.errors import BlockedURL, ConnectFailed, HttpError, InvalidURL, Offline

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_ALLOWED_SCHEMES = frozenset({"http", "https"})
_SHARED_ADDRESS_SPACE = ipaddress.IPv4Network("100.64.0.0/10")
_NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL_USE = ipaddress.IPv6Network("64:ff9b:1::/48")
_METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    {
        ipaddress.IPv4Address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack, ...
        ipaddress.IPv6Address("fd00:ec2::254"),  # AWS over IPv6
        ipaddress.IPv4Address("100.100.100.200"),  # Alibaba Cloud
    }
)
_METADATA_HOSTS = frozenset({"metadata.google.internal", "metadata.goog", "metadata"})


# --- offline runs ---


class _OfflineSwitch:
    """A process-wide switch, not a context variable: fetches run in worker threads, which must
    see it too."""

    def __init__(self) -> None:
        self._depth = 0
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        return self._depth > 0

    def enter(self) -> None:
        with self._lock:
            self._depth += 1

    def leave(self) -> None:
        with self._lock:
            self._depth -= 1


_offline = _OfflineSwitch()


@contextmanager
def offline() -> Iterator[None]:
    """Inside the block, every outbound connection is refused before any DNS look-up (an
    evaluation on an offline web, or any run that must not touch the network)."""
    _offline.enter()
    try:
        yield
    finally:
        _offline.leave()


# --- address policy -----------------------------------------------------------------------------


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address `host` resolves to, in resolver order. Tests replace this to fake DNS."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses: list[IPAddress] = []
    for family, _type, _proto, _name, sockaddr in infos:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        address = ipaddress.ip_address(sockaddr[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


def _literal_address(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address that traffic to `address` really reaches, for the transition forms."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64_WELL_KNOWN:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _refusal(address: IPAddress, *, allow_loopback: bool) -> str | None:
    """Why `address` may not be contacted, or None when it may."""
    if isinstance(address, ipaddress.IPv6Address):
        # A zone index (fe80::1%eth0) would make the address compare unequal to the lists below.
        address = ipaddress.IPv6Address(int(address))
    if address in _METADATA_ADDRESSES:
        return "a cloud metadata address"
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            reason = _refusal(embedded, allow_loopback=allow_loopback)
            if reason is not None or address.ipv4_mapped is not None:
                # A mapped address is the IPv4 host itself; 6to4/NAT64 must pass both checks.
                return reason
        if address in _NAT64_LOCAL_USE:
            return "a local-use NAT64 address"
    if address.is_loopback:
        return None if allow_loopback else "a loopback address"
    if address.is_unspecified:
        return "an unspecified address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_multicast:
        return "a multicast address"
    if isinstance(address, ipaddress.IPv4Address) and address in _SHARED_ADDRESS_SPACE:
        return "a shared (CGNAT) address"
    if address.is_private:
        return "a private address"
    if address.is_reserved:
        return "a reserved address"
    if not address.is_global:
        return "not a public address"
    return None


@dataclass(frozen=True)
class Policy:
    """Which destinations one call may reach.

    `trusted_origin` is the admin-configured origin (scheme, host, port) of a trusted call: its
    addresses are not vetted (a self-hosted SearxNG on 127.0.0.1 is fine). Only that origin is
    trusted: another port or scheme on the same host (a redirect to 127.0.0.1:6379, say) is
    vetted like any other URL.
    """

    allow_loopback: bool
    trusted_origin: tuple[str, str, int] | None = None

    @classmethod
    def for_call(cls, url: httpx.URL, *, trusted: bool) -> Policy:
        # Scripts may import this without Django configured; they get the strict default.
        allow = settings.configured and bool(
            getattr(settings, "CLAIMCHECK_HTTP_ALLOW_LOOPBACK", False)
        )
        origin = None
        if trusted:
            scheme = url.scheme.lower()
            host = _host_key(url.raw_host.decode("ascii"))
            origin = (scheme, host, url.port or _DEFAULT_PORTS.get(scheme, 0))
        return cls(allow_loopback=allow, trusted_origin=origin)

    def vet_url(self, url: httpx.URL, *, shown: str) -> list[IPAddress]:
        """Scheme, credentials, host, then addresses; returns the vetted addresses."""
        scheme = url.scheme.lower()
        if not scheme:
            raise InvalidURL("the URL has no scheme", url=shown)
        if scheme not in _ALLOWED_SCHEMES:
            raise BlockedURL(f"the {scheme!r} scheme is not allowed", url=shown)
        if url.userinfo:
            raise BlockedURL("URLs with credentials are not allowed", url=shown)
        host = url.raw_host.decode("ascii")
        if not host:
            raise InvalidURL("the URL has no host", url=shown)
        port = url.port or _DEFAULT_PORTS[scheme]
        try:
            return self.vet_host(host, port, scheme=scheme)
        except HttpError as exc:
            exc.url = shown
            raise

    def vet_host(self, host: str, port: int, *, scheme: str | None = None) -> list[IPAddress]:
        """Resolve `host` and return its addresses if every one of them may be contacted.
        `scheme` is known when a URL is vetted; the connection that follows knows only the host
        and port, and every URL it connects for was vetted with its scheme just before."""
        key = _host_key(host)
        if _offline.active:
            raise Offline(f"offline: {key} was not contacted")
        if key in _METADATA_HOSTS:
            raise BlockedURL(f"{key} is a cloud metadata host")
        literal = _literal_address(host)
        if literal is not None:
            addresses = [literal]
        else:
            try:
                addresses = resolve(host, port)
            except (OSError, UnicodeError) as exc:
                raise ConnectFailed(f"cannot resolve {key}", dns=True) from exc
            if not addresses:
                raise ConnectFailed(f"{key} has no addresses", dns=True)
        trusted = self.trusted_origin is not None and self.trusted_origin[1:] == (key, port)
        if trusted and scheme is not None and self.trusted_origin is not None:
            trusted = self.trusted_origin[0] == scheme
        for address in addresses:
            if trusted:
                # Even an admin-configured endpoint has no business with instance credentials.
                reason = "a cloud metadata address" if address in _METADATA_ADDRESSES else None
            else:
                reason = _refusal(address, allow_loopback=self.allow_loopback)
            if reason is not None:
                # Every address must pass: the resolver's order is not ours to rely on.
                raise BlockedURL(f"{key} resolves to {reason}")
        return addresses


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _host_key(host: str) -> str:
    return host.strip("[]").rstrip(".").lower()


def check_url(url: str, *, trusted: bool = False) -> None:
    """Refuse `url` unless it is http(s), credential-free and every address it resolves to is
    public. Raises BlockedURL, InvalidURL or ConnectFailed(dns=True)."""
    parsed = parse_url(url, shown=url)
    Policy.for_call(parsed, trusted=trusted).vet_url(parsed, shown=url)


def parse_url(url: str | httpx.URL, *, shown: str) -> httpx.URL:
    try:
        return httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise InvalidURL("the URL cannot be parsed", url=shown) from exc
