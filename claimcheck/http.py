"""The one way out: every outbound HTTP request of ClaimCheck goes through this module.

Page fetching, search-provider APIs and the fact-check API all ask for URLs that come, directly
or through redirects, from the open web. So each request here is guarded against server-side
request forgery twice: a pre-flight check resolves the host and refuses non-public addresses
(repeated for every redirect hop), and the network backend resolves, vets and connects to the
vetted IP itself, so a DNS answer that changes between check and connect cannot slip through.

Non-2xx statuses are not errors here: callers decide what a 404 or a 503 means to them.
Transport problems become `HttpError` subclasses with a stable `kind`.
"""

from __future__ import annotations

import codecs
import functools
import ipaddress
import json as jsonlib
import logging
import re
import socket
import ssl
import threading
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import charset_normalizer
import httpcore
import httpx
from django.conf import settings

logger = logging.getLogger("claimcheck.http")

USER_AGENT = "ClaimCheck/0.1 (+https://claimcheck.example/bot)"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_ALLOWED_SCHEMES = frozenset({"http", "https"})
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Caller headers that may follow a redirect to another origin: API keys often travel in
# custom headers (X-Subscription-Token, X-Api-Key), so everything else stays behind.
_CROSS_ORIGIN_HEADERS = frozenset({"accept", "accept-language", "user-agent"})
_BODY_HEADERS = frozenset({"content-type", "content-length", "content-encoding"})

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


# --- errors -------------------------------------------------------------------------------------


class HttpError(Exception):
    """A request that produced no usable response. Messages name the host, never the query."""

    kind: str = "error"

    def __init__(self, message: str = "", *, url: str = "", kind: str | None = None) -> None:
        if kind is not None:
            self.kind = kind
        super().__init__(message or self.kind)
        self.url = url


class BlockedURL(HttpError):
    kind = "blocked"


class FetchTimeout(HttpError):
    kind = "timeout"


class TooLarge(HttpError):
    kind = "too_large"


class TooManyRedirects(HttpError):
    kind = "too_many_redirects"


class ConnectFailed(HttpError):
    kind = "connect"

    def __init__(self, message: str = "", *, url: str = "", dns: bool = False) -> None:
        super().__init__(message, url=url)
        self.dns = dns


class InvalidURL(HttpError):
    kind = "invalid_url"


class Offline(HttpError):
    """Outbound connections are switched off (see `offline()`): nothing was contacted."""

    kind = "offline"


class TransferFailed(HttpError):
    """The connection broke or the peer spoke broken HTTP after the request went out."""

    kind = "transfer"


class BadJSON(HttpError):
    kind = "bad_json"


# --- response -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Response:
    """A completed exchange.

    `url` is the URL as the caller gave it; `final_url` the last hop's URL. Neither carries the
    `params` argument, because API keys travel there and URLs end up in logs and the database.
    `redirects` lists every redirect target followed, in order.
    """

    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    content: bytes
    content_type: str
    encoding: str
    elapsed_ms: int
    redirects: list[str] = field(default_factory=list)
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def text(self) -> str:
        return self.content.decode(self.encoding, errors="replace")

    def json(self) -> Any:
        try:
            return jsonlib.loads(self.text)
        except ValueError as exc:
            raise BadJSON(f"{_host_of(self.final_url)} sent invalid JSON", url=self.url) from exc


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
class _Policy:
    """Which destinations one call may reach.

    `trusted_origin` is the admin-configured origin (scheme, host, port) of a trusted call: its
    addresses are not vetted (a self-hosted SearxNG on 127.0.0.1 is fine). Only that origin is
    trusted: another port or scheme on the same host (a redirect to 127.0.0.1:6379, say) is
    vetted like any other URL.
    """

    allow_loopback: bool
    trusted_origin: tuple[str, str, int] | None = None

    @classmethod
    def for_call(cls, url: httpx.URL, *, trusted: bool) -> _Policy:
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
    parsed = _parse(url, shown=url)
    _Policy.for_call(parsed, trusted=trusted).vet_url(parsed, shown=url)


def _parse(url: str | httpx.URL, *, shown: str) -> httpx.URL:
    try:
        return httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise InvalidURL("the URL cannot be parsed", url=shown) from exc


# --- guarded network backends -------------------------------------------------------------------


def _clamp(timeout: float | None, deadline: float) -> float:
    """The socket timeout for the next operation: never past the call's deadline."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the request deadline has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """Clamps every socket operation to the call's deadline.

    httpcore fixes the read timeout once per response body, so without this a server that
    stalls just before the deadline would hold a sync caller for a further full read timeout.
    """

    def __init__(self, inner: httpcore.NetworkStream, deadline: float) -> None:
        self._inner = inner
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, timeout=_clamp(timeout, self._deadline))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, timeout=_clamp(timeout, self._deadline))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(
            ssl_context, server_hostname=server_hostname, timeout=_clamp(timeout, self._deadline)
        )
        return _DeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _GuardedBackend(httpcore.NetworkBackend):
    """Connects only to addresses it has just vetted itself, so a DNS answer that changed since
    the pre-flight check (rebinding) is caught. TLS still sends the hostname as SNI and checks
    the certificate against it, because httpcore takes both from the request, not the socket."""

    def __init__(self, policy: _Policy, deadline: float) -> None:
        self._policy = policy
        self._deadline = deadline
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = self._policy.vet_host(host, port)
        failure: httpcore.ConnectError | None = None
        for address in addresses:
            try:
                stream = self._inner.connect_tcp(
                    str(address),
                    port,
                    timeout=_clamp(timeout, self._deadline),
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except httpcore.ConnectError as exc:
                failure = exc
            else:
                return _DeadlineStream(stream, self._deadline)
        raise failure or httpcore.ConnectError(f"cannot connect to {host}")

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        raise BlockedURL("unix sockets are not allowed")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """The async twin of _GuardedBackend. The deadline needs no stream wrapper here: arequest
    runs under anyio.fail_after, which cancels whatever is pending when time is up."""

    def __init__(self, policy: _Policy) -> None:
        self._policy = policy
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            with anyio.fail_after(timeout):
                # getaddrinfo blocks; a thread keeps other providers' requests moving meanwhile.
                addresses = await anyio.to_thread.run_sync(
                    self._policy.vet_host, host, port, abandon_on_cancel=True
                )
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout(f"resolving {host} took too long") from exc
        failure: httpcore.ConnectError | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    str(address),
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except httpcore.ConnectError as exc:
                failure = exc
        raise failure or httpcore.ConnectError(f"cannot connect to {host}")

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise BlockedURL("unix sockets are not allowed")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    # Loading the CA bundle costs milliseconds; one shared client context is safe across threads.
    return httpx.create_ssl_context(trust_env=False)


def _client(policy: _Policy, deadline: float) -> httpx.Client:
    # verify= hands over the shared context: otherwise the transport loads the CA bundle anew
    # for the pool that is replaced on the next line (~15 ms of CPU a request).
    transport = httpx.HTTPTransport(retries=0, trust_env=False, verify=_ssl_context())
    # httpx has no switch for the network backend, so its pool is replaced by an identical one
    # built on the guarded backend. respx patches the pool class, so mocks still apply.
    transport._pool = httpcore.ConnectionPool(
        ssl_context=_ssl_context(), retries=0, network_backend=_GuardedBackend(policy, deadline)
    )
    return httpx.Client(
        transport=transport,
        headers={"User-Agent": USER_AGENT},
        follow_redirects=False,
        trust_env=False,  # an environment proxy would connect for us and skip the guard
    )


def _async_client(policy: _Policy) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(retries=0, trust_env=False, verify=_ssl_context())
    transport._pool = httpcore.AsyncConnectionPool(
        ssl_context=_ssl_context(), retries=0, network_backend=_AsyncGuardedBackend(policy)
    )
    return httpx.AsyncClient(
        transport=transport,
        headers={"User-Agent": USER_AGENT},
        follow_redirects=False,
        trust_env=False,
    )


# --- charset detection --------------------------------------------------------------------------

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_META_CHARSET = re.compile(
    rb"""<meta\b[^>]*?charset\s*=\s*["']?\s*([a-z0-9_.:-]+)""", re.IGNORECASE
)
_CHARSET_PARAM = re.compile(r"""charset\s*=\s*["']?([^"';\s]+)""", re.IGNORECASE)
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
# The legacy encodings of the WHATWG Encoding Standard, by their Python codec names.
_WEB_LEGACY_CODECS = (
    "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
    "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_5", "iso8859_6", "iso8859_7", "iso8859_8",
    "iso8859_10", "iso8859_13", "iso8859_14", "iso8859_15", "iso8859_16",
    "koi8_r", "koi8_u", "cp866", "mac_roman", "mac_cyrillic", "cp874",
    "gb18030", "big5", "euc_jp", "iso2022_jp", "shift_jis", "euc_kr", "utf_16_be", "utf_16_le",
)  # fmt: skip
_SNIFF_BYTES = 4096


def _codec(label: str) -> str | None:
    try:
        return codecs.lookup(label.strip()).name
    except LookupError:
        return None


def _decodes(content: bytes, codec: str) -> bool:
    # Incremental and not final, so a body cut at the byte cap mid-character still counts.
    try:
        codecs.getincrementaldecoder(codec)().decode(content, final=False)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def _web_codec(codec: str, content: bytes) -> str:
    # Browsers read latin-1 and ASCII labels as windows-1252 (WHATWG Encoding), and pages rely
    # on it for curly quotes and dashes in the 0x80-0x9F range.
    if codec in ("iso8859-1", "latin-1", "ascii") and _decodes(content, "cp1252"):
        return "cp1252"
    return codec


def detect_encoding(content: bytes, content_type_header: str) -> str:
    """Byte order mark, then the Content-Type charset, then a <meta> declaration in the first
    4 KiB of HTML, then charset_normalizer; utf-8 when nothing fits. A declaration the bytes
    do not decode under is ignored, since servers and templates often disagree."""
    for bom, bom_codec in _BOMS:
        if content.startswith(bom):
            return bom_codec
    media_type = content_type_header.split(";", 1)[0].strip().lower()
    labels: list[str] = []
    if match := _CHARSET_PARAM.search(content_type_header):
        labels.append(match.group(1))
    meta = _META_CHARSET.search(content[:_SNIFF_BYTES])
    if meta and (media_type in _HTML_TYPES or not media_type):
        labels.append(meta.group(1).decode("ascii"))
    if media_type == "application/json" or media_type.endswith("+json"):
        labels.append("utf-8")  # RFC 8259: JSON exchanged between systems is UTF-8
    for label in labels:
        declared = _codec(label)
        if declared is not None and _decodes(content, declared):
            return _web_codec(declared, content)
    if not content:
        return "utf-8"
    if _decodes(content, "utf-8"):
        return "utf-8"
    return _guess_legacy_codec(content) or "utf-8"


def _guess_legacy_codec(content: bytes) -> str | None:
    # Only encodings a browser can decode are candidates: a page in anything else cannot render
    # anywhere, and left free charset_normalizer reads French windows-1252 as mac-latin2.
    matches = charset_normalizer.from_bytes(content, cp_isolation=list(_WEB_LEGACY_CODECS))
    best = matches.best()
    if best is None:
        return None
    # On short Western text several single-byte code pages tie; windows-1252 is by far the most
    # common of them on the web (and the WHATWG fallback), so it wins a tie.
    for match in matches:
        if match.encoding == "cp1252" and match.chaos <= best.chaos + 0.01:
            return "cp1252"
    return _codec(best.encoding)


# --- the request itself -------------------------------------------------------------------------


def _host_of(url: str | httpx.URL) -> str:
    try:
        return httpx.URL(url).host
    except (httpx.InvalidURL, TypeError, ValueError):
        return ""


@dataclass
class _Hop:
    url: httpx.URL
    shown: str  # how errors and the Response name this hop: never with `params` merged in
    method: str
    headers: dict[str, str]
    send_body: bool
    first: bool


class _Fetch:
    """State and decisions shared by the sync and async drivers; they only do the I/O."""

    def __init__(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any] | None,
        headers: Mapping[str, str] | None,
        json: Any,
        data: Mapping[str, Any] | str | bytes | None,
        timeout: float,
        connect_timeout: float,
        max_bytes: int,
        max_redirects: int,
        truncate: bool,
        trusted: bool,
    ) -> None:
        if max_bytes < 0 or max_redirects < 0 or timeout <= 0 or connect_timeout <= 0:
            raise ValueError("limits must be positive")
        self.requested = url
        self.params = params
        self.json = json
        self.data = data
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.max_bytes = max_bytes
        self.max_redirects = max_redirects
        self.truncate = truncate
        self.started = time.monotonic()
        self.deadline = self.started + timeout
        self.redirects: list[str] = []
        parsed = _parse(url, shown=url)
        self.policy = _Policy.for_call(parsed, trusted=trusted)
        self.hop = _Hop(
            url=parsed,
            shown=url,
            method=method.upper(),
            headers=dict(headers or {}),
            send_body=True,
            first=True,
        )

    # timing

    def remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise FetchTimeout(f"{self.hop.url.host} took longer than {self.timeout:g}s")
        return left

    def elapsed_ms(self) -> int:
        return int((time.monotonic() - self.started) * 1000)

    # building and judging hops

    def build(self, client: httpx.Client | httpx.AsyncClient) -> httpx.Request:
        left = self.remaining()
        hop = self.hop
        body: dict[str, Any] = {}
        if hop.send_body:
            if self.json is not None:
                body["json"] = self.json
            elif isinstance(self.data, str | bytes):
                body["content"] = self.data
            elif self.data is not None:
                body["data"] = self.data
        try:
            return client.build_request(
                hop.method,
                hop.url,
                params=self.params if hop.first else None,
                headers=hop.headers,
                timeout=httpx.Timeout(
                    left, connect=min(self.connect_timeout, left), read=left, write=left, pool=left
                ),
                **body,
            )
        except httpx.InvalidURL as exc:
            raise InvalidURL("the URL cannot be parsed", url=hop.shown) from exc

    def next_hop(self, response: httpx.Response) -> _Hop | None:
        """The hop a redirect asks for, or None when `response` is the final answer."""
        location = response.headers.get("location")
        if response.status_code not in _REDIRECT_STATUSES or not location:
            return None
        hop = self.hop
        if len(self.redirects) >= self.max_redirects:
            raise TooManyRedirects(
                f"{hop.url.host} redirected more than {self.max_redirects} times", url=hop.shown
            )
        try:
            target = response.request.url.join(location.strip())
        except (httpx.InvalidURL, TypeError, ValueError) as exc:
            raise InvalidURL(f"{hop.url.host} sent an invalid redirect", url=hop.shown) from exc
        method, send_body = hop.method, hop.send_body
        status = response.status_code
        if (status == 303 and method != "HEAD") or (status in (301, 302) and method == "POST"):
            method, send_body = "GET", False
        headers = dict(hop.headers)
        if not send_body:
            headers = {k: v for k, v in headers.items() if k.lower() not in _BODY_HEADERS}
        if _origin(target) != _origin(hop.url):
            headers = {k: v for k, v in headers.items() if k.lower() in _CROSS_ORIGIN_HEADERS}
        target_text = str(target)
        self.redirects.append(target_text)
        return _Hop(
            url=target,
            shown=target_text,
            method=method,
            headers=headers,
            send_body=send_body,
            first=False,
        )

    def check_length(self, response: httpx.Response) -> None:
        declared = response.headers.get("content-length", "")
        if not self.truncate and declared.isdigit() and int(declared) > self.max_bytes:
            raise TooLarge(
                f"{self.hop.url.host} announced {declared} bytes, over {self.max_bytes}",
                url=self.hop.shown,
            )

    def take(self, body: bytearray, chunk: bytes) -> bool:
        """Append `chunk`; True once the cap is reached and reading must stop."""
        body.extend(chunk)
        if len(body) <= self.max_bytes:
            return False
        if not self.truncate:
            raise TooLarge(
                f"{self.hop.url.host} sent more than {self.max_bytes} bytes", url=self.hop.shown
            )
        del body[self.max_bytes :]
        return True

    def finish(self, response: httpx.Response, body: bytearray, *, truncated: bool) -> Response:
        content = bytes(body)
        content_type_header = response.headers.get("content-type", "")
        result = Response(
            url=self.requested,
            final_url=self.hop.shown,
            status=response.status_code,
            headers={key.lower(): value for key, value in response.headers.items()},
            content=content,
            content_type=content_type_header.split(";", 1)[0].strip().lower(),
            encoding=detect_encoding(content, content_type_header),
            elapsed_ms=self.elapsed_ms(),
            redirects=list(self.redirects),
            truncated=truncated,
        )
        logger.info(
            "http: fetched",
            extra={
                "host": self.hop.url.host,
                "status": result.status,
                "elapsed_ms": result.elapsed_ms,
            },
        )
        return result

    @contextmanager
    def translating(self) -> Iterator[None]:
        """Turn transport exceptions into HttpError subclasses, and log every failure."""
        try:
            try:
                yield
            except HttpError:
                raise
            except httpx.TimeoutException as exc:
                raise FetchTimeout(f"{self.hop.url.host} timed out") from exc
            except TimeoutError as exc:  # the async driver's overall deadline
                raise FetchTimeout(f"{self.hop.url.host} timed out") from exc
            except httpx.ConnectError as exc:
                raise ConnectFailed(f"cannot connect to {self.hop.url.host}") from exc
            except httpx.UnsupportedProtocol as exc:
                raise BlockedURL(f"the {self.hop.url.scheme!r} scheme is not allowed") from exc
            except httpx.RequestError as exc:
                raise TransferFailed(f"{self.hop.url.host}: {type(exc).__name__}") from exc
        except HttpError as exc:
            if not exc.url:
                exc.url = self.hop.shown
            logger.warning(
                "http: failed",
                extra={
                    "host": self.hop.url.host,
                    "kind": exc.kind,
                    "elapsed_ms": self.elapsed_ms(),
                },
            )
            raise

    @asynccontextmanager
    async def atranslating(self) -> AsyncIterator[None]:
        with self.translating():
            # fail_after, unlike per-read timeouts, also cuts a slow DNS lookup or TLS handshake.
            with anyio.fail_after(self.timeout):
                yield


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


def request(
    method: str,
    url: str,
    *,
    params: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    json: Any = None,
    data: Mapping[str, Any] | str | bytes | None = None,
    timeout: float = 15.0,
    connect_timeout: float = 5.0,
    max_bytes: int = 5_000_000,
    max_redirects: int = 5,
    truncate: bool = False,
    trusted: bool = False,
) -> Response:
    """Send one request, following up to `max_redirects` redirects, every hop vetted.

    `timeout` bounds the whole exchange, redirects and body included. A body over `max_bytes`
    raises TooLarge, or with `truncate=True` comes back cut, with `truncated=True`. `trusted`
    skips the address checks for the host of `url` only (admin-configured endpoints).
    """
    fetch = _Fetch(
        method,
        url,
        params=params,
        headers=headers,
        json=json,
        data=data,
        timeout=timeout,
        connect_timeout=connect_timeout,
        max_bytes=max_bytes,
        max_redirects=max_redirects,
        truncate=truncate,
        trusted=trusted,
    )
    with fetch.translating(), _client(fetch.policy, fetch.deadline) as client:
        while True:
            # getaddrinfo cannot be interrupted: lookups count against the deadline, but a hung
            # resolver can overrun it here (arequest, which runs it in a thread, cannot).
            fetch.policy.vet_url(fetch.hop.url, shown=fetch.hop.shown)
            outgoing = fetch.build(client)
            response = client.send(outgoing, stream=True)
            try:
                next_hop = fetch.next_hop(response)
                if next_hop is None:
                    fetch.check_length(response)
                    body = bytearray()
                    truncated = False
                    for chunk in response.iter_bytes():
                        if fetch.take(body, chunk):
                            truncated = True
                            break
                        fetch.remaining()  # a body that keeps trickling in
                    return fetch.finish(response, body, truncated=truncated)
            finally:
                response.close()
            fetch.hop = next_hop


async def arequest(
    method: str,
    url: str,
    *,
    params: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    json: Any = None,
    data: Mapping[str, Any] | str | bytes | None = None,
    timeout: float = 15.0,
    connect_timeout: float = 5.0,
    max_bytes: int = 5_000_000,
    max_redirects: int = 5,
    truncate: bool = False,
    trusted: bool = False,
) -> Response:
    """`request` for asyncio: run several providers at once with asyncio.gather."""
    fetch = _Fetch(
        method,
        url,
        params=params,
        headers=headers,
        json=json,
        data=data,
        timeout=timeout,
        connect_timeout=connect_timeout,
        max_bytes=max_bytes,
        max_redirects=max_redirects,
        truncate=truncate,
        trusted=trusted,
    )
    async with fetch.atranslating(), _async_client(fetch.policy) as client:
        while True:
            hop = fetch.hop
            await anyio.to_thread.run_sync(
                functools.partial(fetch.policy.vet_url, hop.url, shown=hop.shown),
                abandon_on_cancel=True,
            )
            outgoing = fetch.build(client)
            response = await client.send(outgoing, stream=True)
            try:
                next_hop = fetch.next_hop(response)
                if next_hop is None:
                    fetch.check_length(response)
                    body = bytearray()
                    truncated = False
                    async for chunk in response.aiter_bytes():
                        if fetch.take(body, chunk):
                            truncated = True
                            break
                        fetch.remaining()  # a body that keeps trickling in
                    return fetch.finish(response, body, truncated=truncated)
            finally:
                await response.aclose()
            fetch.hop = next_hop


def get(url: str, **kwargs: Any) -> Response:
    return request("GET", url, **kwargs)


async def aget(url: str, **kwargs: Any) -> Response:
    return await arequest("GET", url, **kwargs)
