"""The request itself: `request` / `get` and their async twins, with redirects followed hop by
hop (each vetted again), headers that do not cross origins, byte caps and the response."""

from __future__ import annotations

import functools
import json as jsonlib
import logging
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx

from integrations.http.addresses import Policy, parse_url
from integrations.http.backends import guarded_async_client, guarded_client
from integrations.http.charset import detect_encoding
from integrations.http.errors import (
    BadJSON,
    BlockedURL,
    ConnectFailed,
    FetchTimeout,
    HttpError,
    InvalidURL,
    TooLarge,
    TooManyRedirects,
    TransferFailed,
)

logger = logging.getLogger("integrations.http")

_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Caller headers that may follow a redirect to another origin: API keys often travel in
# custom headers (X-Subscription-Token, X-Api-Key), so everything else stays behind.
_CROSS_ORIGIN_HEADERS = frozenset({"accept", "accept-language", "user-agent"})
_BODY_HEADERS = frozenset({"content-type", "content-length", "content-encoding"})


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
        parsed = parse_url(url, shown=url)
        self.policy = Policy.for_call(parsed, trusted=trusted)
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
    with fetch.translating(), guarded_client(fetch.policy, fetch.deadline) as client:
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
    async with fetch.atranslating(), guarded_async_client(fetch.policy) as client:
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
