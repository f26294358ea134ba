"""The outbound HTTP module: the SSRF guard, the byte cap, redirects, charsets and timeouts.

DNS is faked through `http.addresses.resolve`; upstreams are respx routes, except where a test
needs the real network backend, which then talks to a throwaway server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
import respx

from integrations import http

REAL_RESOLVE = http.resolve

FAKE_DNS = {
    "public.example.org": ["93.184.216.34"],
    "other.example.net": ["151.101.1.69", "2606:2800:220:1::1"],
    "internal.example.org": ["10.1.2.3"],
    "mixed.example.org": ["93.184.216.34", "192.168.1.20"],
    "v6-private.example.org": ["fd12:3456::1"],
}
# respx routes are matched on URL, so these hosts must also resolve publicly for the pre-flight.
FAKE_DNS["api.example.org"] = FAKE_DNS["public.example.org"]

PAGE = b"<!doctype html><html><head><title>Local</title></head><body>hello</body></html>"


def fake_resolve(host: str, port: int) -> list[http.IPAddress]:
    try:
        return [ipaddress.ip_address(a) for a in FAKE_DNS[host]]
    except KeyError:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http.addresses, "resolve", fake_resolve)


class ChunkStream(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body without Content-Length, sent in chunks, that remembers whether it was read."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.read = False

    def __iter__(self) -> Iterator[bytes]:
        self.read = True
        yield from self.chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        self.read = True
        for chunk in self.chunks:
            yield chunk


# --- a real server on loopback ------------------------------------------------------------------


class LocalHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        try:
            if self.path.startswith("/go/"):
                # /go/<scheme>/<port>: a redirect to that scheme and port on this same host.
                _, _, scheme, port = self.path.split("/", 3)
                self.send_response(302)
                self.send_header("Location", f"{scheme}://127.0.0.1:{port}/page")
                self.end_headers()
                return
            route = getattr(self, "route_" + self.path.strip("/").replace("-", "_"), None)
            if route is None:
                self.send_error(404)
            else:
                route()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up on purpose: that is what the cap and deadline tests do

    def route_page(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def route_redirect(self) -> None:
        self.send_response(302)
        self.send_header("Location", "/page")
        self.end_headers()

    def route_to_private(self) -> None:
        self.send_response(302)
        self.send_header("Location", "http://10.0.0.7/")
        self.end_headers()

    def route_big(self) -> None:
        # HTTP/1.0 and no Content-Length: only reading the stream reveals the size.
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        chunk = b"a" * 65536
        for _ in range(32):  # 2 MiB
            self.wfile.write(chunk)

    def route_drip(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        for _ in range(100):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(0.1)

    def route_stall(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        for _ in range(15):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(0.1)
        time.sleep(5)  # then nothing: one read now blocks past the caller's deadline

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep pytest output readable


@pytest.fixture
def local_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), LocalHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def allow_loopback(settings: Any) -> None:
    settings.CLAIMCHECK_HTTP_ALLOW_LOOPBACK = True


# --- the SSRF guard -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.org/x",
        "gopher://public.example.org:70/_x",
        "data:text/plain,hello",
        "javascript:alert(1)",
        "http://user:secret@public.example.org/",
    ],
)
def test_it_refuses_urls_that_are_not_plain_http(url: str) -> None:
    with respx.mock() as mock:
        with pytest.raises(http.BlockedURL) as caught:
            http.get(url)
        assert not mock.calls
    assert caught.value.kind == "blocked"
    assert caught.value.url == url


def test_it_refuses_file_urls() -> None:
    with pytest.raises(http.BlockedURL):
        http.check_url("file:///etc/passwd")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://127.8.9.10/",
        "http://[::1]/",
        "http://10.0.0.5/",
        "http://172.16.3.4/",
        "http://192.168.0.1/",
        "http://169.254.169.254/latest/meta-data",
        "http://[fd00:ec2::254]/latest/meta-data",
        "http://100.100.100.200/latest/meta-data",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://METADATA.google.internal./",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://[::]/",
        "http://224.0.0.1/",
        "http://240.0.0.1/",
        "http://[fe80::1]/",
        "http://[fc00::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://[64:ff9b::a00:1]/",  # NAT64 form of 10.0.0.1
        "http://[2002:a9fe:a9fe::]/",  # 6to4 form of 169.254.169.254
        "http://internal.example.org/",
        "http://mixed.example.org/",
        "http://v6-private.example.org/",
    ],
)
def test_it_refuses_destinations_that_are_not_public(url: str) -> None:
    with respx.mock() as mock:
        with pytest.raises(http.BlockedURL):
            http.get(url)
        assert not mock.calls
    with pytest.raises(http.BlockedURL):
        http.check_url(url)


def test_a_public_looking_hostname_that_resolves_to_a_private_address_is_refused() -> None:
    with pytest.raises(http.BlockedURL) as caught:
        http.check_url("https://internal.example.org/report?id=1")
    assert "private" in str(caught.value)
    assert "id=1" not in str(caught.value)


def test_loopback_spelled_as_a_decimal_integer_is_refused_after_real_resolution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http.addresses, "resolve", REAL_RESOLVE)
    with pytest.raises(http.BlockedURL):
        http.check_url("http://2130706433/")


def test_the_real_resolver_returns_each_address_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def getaddrinfo(host: str, port: int, *args: object, **kwargs: object) -> list[tuple]:
        tcp = socket.SOCK_STREAM
        return [
            (socket.AF_INET, tcp, 6, "", ("93.184.216.34", port)),
            (socket.AF_INET, tcp, 6, "", ("93.184.216.34", port)),
            (socket.AF_INET6, tcp, 6, "", ("2606:2800:220:1::1", port, 0, 0)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    assert REAL_RESOLVE("example.org", 443) == [
        ipaddress.ip_address("93.184.216.34"),
        ipaddress.ip_address("2606:2800:220:1::1"),
    ]


def test_public_addresses_pass_the_check() -> None:
    http.check_url("https://public.example.org/a?b=c")
    http.check_url("http://other.example.net/")
    http.check_url("http://93.184.216.34/")
    http.check_url("http://[2606:2800:220:1::1]/")


def test_an_unknown_host_is_a_dns_failure() -> None:
    with pytest.raises(http.ConnectFailed) as caught:
        http.get("https://no-such-host.example.org/")
    assert caught.value.dns is True
    assert caught.value.kind == "connect"


@pytest.mark.parametrize(
    "url", ["http:///just-a-path", "public.example.org/no-scheme", "http://[::1/"]
)
def test_urls_without_a_host_or_that_do_not_parse_are_invalid(url: str) -> None:
    with pytest.raises(http.InvalidURL) as caught:
        http.get(url)
    assert caught.value.kind == "invalid_url"


def test_a_redirect_to_a_private_address_is_refused_before_it_is_requested() -> None:
    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://public.example.org/").mock(
            return_value=httpx.Response(302, headers={"Location": "http://10.0.0.7/"})
        )
        private = mock.get("http://10.0.0.7/").mock(return_value=httpx.Response(200, text="x"))
        with pytest.raises(http.BlockedURL) as caught:
            http.get("https://public.example.org/")
    assert not private.called
    assert caught.value.url == "http://10.0.0.7/"


@respx.mock
def test_a_redirect_to_a_file_url_is_refused() -> None:
    respx.get("https://public.example.org/").mock(
        return_value=httpx.Response(301, headers={"Location": "file:///etc/passwd"})
    )
    with pytest.raises(http.BlockedURL) as caught:
        http.get("https://public.example.org/")
    assert caught.value.url.startswith("file:")


def test_the_connection_guard_refuses_an_address_that_changed_after_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DNS rebinding: public at the pre-flight check, loopback when the socket is opened."""
    answers = iter(["93.184.216.34", "127.0.0.1"])
    looked_up: list[str] = []

    def rebinding(host: str, port: int) -> list[http.IPAddress]:
        looked_up.append(host)
        return [ipaddress.ip_address(next(answers))]

    monkeypatch.setattr(http.addresses, "resolve", rebinding)
    with pytest.raises(http.BlockedURL) as caught:
        http.get("http://rebind.example.org/")
    assert looked_up == ["rebind.example.org", "rebind.example.org"]
    assert "loopback" in str(caught.value)


# --- loopback and trusted endpoints, against a real server --------------------------------------


@pytest.mark.usefixtures("allow_loopback")
def test_with_loopback_allowed_a_real_local_server_is_reachable(local_server: str) -> None:
    response = http.get(f"{local_server}/page")
    assert response.status == 200
    assert response.content == PAGE
    assert response.content_type == "text/html"
    assert response.encoding == "utf-8"
    assert "hello" in response.text


@pytest.mark.usefixtures("allow_loopback")
def test_with_loopback_allowed_a_real_redirect_is_followed(local_server: str) -> None:
    response = http.get(f"{local_server}/redirect")
    assert response.status == 200
    assert response.final_url == f"{local_server}/page"
    assert response.redirects == [f"{local_server}/page"]
    assert response.content == PAGE


def test_with_loopback_not_allowed_the_same_local_server_is_refused(local_server: str) -> None:
    with pytest.raises(http.BlockedURL):
        http.get(f"{local_server}/page")


@pytest.mark.usefixtures("allow_loopback")
def test_allowing_loopback_still_refuses_private_and_metadata_addresses() -> None:
    for url in ("http://10.0.0.5/", "http://169.254.169.254/", "http://internal.example.org/"):
        with pytest.raises(http.BlockedURL):
            http.check_url(url)


@pytest.mark.usefixtures("allow_loopback")
def test_the_network_backend_connects_to_the_address_it_vetted(
    monkeypatch: pytest.MonkeyPatch, local_server: str
) -> None:
    """The hostname exists only in the fake resolver, so the system resolver would fail: the
    request arrives because the backend connected to the IP it checked itself."""
    monkeypatch.setitem(FAKE_DNS, "rebind.example.org", ["127.0.0.1"])
    port = local_server.rsplit(":", 1)[1]
    response = http.get(f"http://rebind.example.org:{port}/page")
    assert response.content == PAGE


@pytest.mark.usefixtures("allow_loopback")
def test_a_real_stream_stops_at_the_byte_cap(local_server: str) -> None:
    with pytest.raises(http.TooLarge):
        http.get(f"{local_server}/big", max_bytes=100_000)
    response = http.get(f"{local_server}/big", max_bytes=100_000, truncate=True)
    assert len(response.content) == 100_000
    assert response.truncated is True


@pytest.mark.usefixtures("allow_loopback")
def test_the_total_timeout_covers_a_body_that_keeps_dripping(local_server: str) -> None:
    started = time.monotonic()
    with pytest.raises(http.FetchTimeout):
        http.get(f"{local_server}/drip", timeout=0.5)
    assert time.monotonic() - started < 2.0


@pytest.mark.usefixtures("allow_loopback")
def test_a_read_that_stalls_near_the_deadline_is_cut_at_the_deadline(local_server: str) -> None:
    """Bytes flow for 1.5 s, then stop. With a plain per-read timeout set when the request went
    out (2 s), the stalled read would end at 3.5 s; it must end at the 2 s deadline."""
    started = time.monotonic()
    with pytest.raises(http.FetchTimeout):
        http.get(f"{local_server}/stall", timeout=2.0)
    assert time.monotonic() - started < 2.8


def test_a_trusted_call_may_reach_loopback_with_the_setting_off(local_server: str) -> None:
    response = http.get(f"{local_server}/page", trusted=True)
    assert response.content == PAGE
    http.check_url(f"{local_server}/page", trusted=True)


def test_a_trusted_call_still_refuses_file_urls() -> None:
    with pytest.raises(http.BlockedURL):
        http.get("file:///etc/passwd", trusted=True)
    with pytest.raises(http.BlockedURL):
        http.check_url("file:///etc/passwd", trusted=True)


def test_trust_does_not_follow_a_redirect_to_another_private_host(local_server: str) -> None:
    with pytest.raises(http.BlockedURL) as caught:
        http.get(f"{local_server}/to-private", trusted=True)
    assert caught.value.url == "http://10.0.0.7/"


def test_trust_covers_the_configured_origin_and_its_own_redirects(local_server: str) -> None:
    port = local_server.rsplit(":", 1)[1]
    response = http.get(f"{local_server}/go/http/{port}", trusted=True)
    assert response.content == PAGE


def test_trust_does_not_follow_a_redirect_to_another_port_on_the_same_host(
    local_server: str,
) -> None:
    other = ThreadingHTTPServer(("127.0.0.1", 0), LocalHandler)
    thread = threading.Thread(target=other.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        other_port = other.server_address[1]
        # The other server answers when asked directly as a trusted origin of its own ...
        assert http.get(f"http://127.0.0.1:{other_port}/page", trusted=True).status == 200
        # ... but a redirect to it from the trusted origin is vetted like any URL: loopback.
        with pytest.raises(http.BlockedURL) as caught:
            http.get(f"{local_server}/go/http/{other_port}", trusted=True)
        assert caught.value.url == f"http://127.0.0.1:{other_port}/page"
    finally:
        other.shutdown()
        other.server_close()
        thread.join(timeout=5)


def test_trust_does_not_follow_a_redirect_to_another_scheme_on_the_same_port(
    local_server: str,
) -> None:
    port = local_server.rsplit(":", 1)[1]
    with pytest.raises(http.BlockedURL):
        http.get(f"{local_server}/go/https/{port}", trusted=True)


def test_a_trusted_call_still_refuses_cloud_metadata() -> None:
    with pytest.raises(http.BlockedURL):
        http.check_url("http://169.254.169.254/latest/meta-data", trusted=True)


# --- byte cap -----------------------------------------------------------------------------------


@respx.mock
def test_a_streamed_body_over_the_cap_is_refused() -> None:
    respx.get("https://public.example.org/big").mock(
        return_value=httpx.Response(200, stream=ChunkStream([b"a" * 600, b"b" * 600]))
    )
    with pytest.raises(http.TooLarge) as caught:
        http.get("https://public.example.org/big", max_bytes=1000)
    assert caught.value.kind == "too_large"


@respx.mock
def test_truncate_returns_exactly_the_cap_and_says_so() -> None:
    respx.get("https://public.example.org/big").mock(
        return_value=httpx.Response(200, stream=ChunkStream([b"a" * 600, b"b" * 600]))
    )
    response = http.get("https://public.example.org/big", max_bytes=1000, truncate=True)
    assert response.content == b"a" * 600 + b"b" * 400
    assert response.truncated is True


@respx.mock
def test_a_body_at_the_cap_is_not_truncated() -> None:
    respx.get("https://public.example.org/exact").mock(
        return_value=httpx.Response(200, stream=ChunkStream([b"a" * 500, b"b" * 500]))
    )
    response = http.get("https://public.example.org/exact", max_bytes=1000, truncate=True)
    assert len(response.content) == 1000
    assert response.truncated is False


@respx.mock
def test_a_content_length_over_the_cap_is_refused_before_reading() -> None:
    body = ChunkStream([b"a" * 10])
    respx.get("https://public.example.org/huge").mock(
        return_value=httpx.Response(200, headers={"Content-Length": "50000000"}, stream=body)
    )
    with pytest.raises(http.TooLarge):
        http.get("https://public.example.org/huge", max_bytes=1000)
    assert body.read is False


# --- redirects ----------------------------------------------------------------------------------


def redirect_chain(router: respx.MockRouter, hops: int) -> respx.Route:
    """/r0 redirects to r1 (relative), ..., r{hops} answers 200; returns that last route."""
    for n in range(hops):
        router.get(f"https://public.example.org/chain/r{n}").mock(
            return_value=httpx.Response(302, headers={"Location": f"r{n + 1}"})
        )
    return router.get(f"https://public.example.org/chain/r{hops}").mock(
        return_value=httpx.Response(200, text="end")
    )


@respx.mock
def test_five_redirects_are_followed() -> None:
    redirect_chain(respx.mock, 5)
    response = http.get("https://public.example.org/chain/r0")
    assert response.status == 200
    assert response.text == "end"
    assert response.url == "https://public.example.org/chain/r0"
    assert response.final_url == "https://public.example.org/chain/r5"
    assert response.redirects == [f"https://public.example.org/chain/r{n}" for n in range(1, 6)]


def test_a_sixth_redirect_is_too_many() -> None:
    with respx.mock(assert_all_called=False) as mock:
        end = redirect_chain(mock, 6)
        with pytest.raises(http.TooManyRedirects) as caught:
            http.get("https://public.example.org/chain/r0")
    assert caught.value.kind == "too_many_redirects"
    assert not end.called


@respx.mock
def test_a_redirect_loop_ends_in_too_many_redirects() -> None:
    a = respx.get("https://public.example.org/a").mock(
        return_value=httpx.Response(301, headers={"Location": "https://other.example.net/b"})
    )
    respx.get("https://other.example.net/b").mock(
        return_value=httpx.Response(307, headers={"Location": "https://public.example.org/a"})
    )
    with pytest.raises(http.TooManyRedirects):
        http.get("https://public.example.org/a")
    assert a.call_count == 3  # a, b, a, b, a, b: five redirects followed, the sixth refused


@respx.mock
def test_max_redirects_zero_returns_the_redirect_itself() -> None:
    respx.get("https://public.example.org/moved").mock(
        return_value=httpx.Response(302, headers={"Location": "/elsewhere"})
    )
    with pytest.raises(http.TooManyRedirects):
        http.get("https://public.example.org/moved", max_redirects=0)


@respx.mock
def test_a_post_redirected_with_302_becomes_a_get_without_a_body() -> None:
    respx.post("https://api.example.org/submit").mock(
        return_value=httpx.Response(302, headers={"Location": "/result"})
    )
    result = respx.get("https://api.example.org/result").mock(
        return_value=httpx.Response(200, json={"ok": True})
    )
    response = http.request("POST", "https://api.example.org/submit", json={"q": "claim"})
    assert response.json() == {"ok": True}
    sent = result.calls.last.request
    assert sent.content == b""
    assert "content-type" not in sent.headers


@respx.mock
def test_a_307_keeps_the_method_and_the_body() -> None:
    respx.post("https://api.example.org/v1").mock(
        return_value=httpx.Response(307, headers={"Location": "/v2"})
    )
    v2 = respx.post("https://api.example.org/v2").mock(return_value=httpx.Response(200))
    http.request("POST", "https://api.example.org/v1", json={"q": "claim"})
    assert v2.calls.last.request.content == b'{"q":"claim"}'


@respx.mock
def test_credentials_in_headers_do_not_follow_a_redirect_to_another_origin() -> None:
    respx.get("https://api.example.org/search").mock(
        return_value=httpx.Response(302, headers={"Location": "https://other.example.net/x"})
    )
    other = respx.get("https://other.example.net/x").mock(return_value=httpx.Response(200))
    http.get(
        "https://api.example.org/search",
        headers={"Authorization": "Bearer t0ken", "X-Api-Key": "k3y", "Accept": "text/html"},
    )
    sent = other.calls.last.request.headers
    assert "authorization" not in sent
    assert "x-api-key" not in sent
    assert sent["accept"] == "text/html"


# --- responses ----------------------------------------------------------------------------------


@respx.mock
def test_error_statuses_come_back_as_responses() -> None:
    respx.get("https://public.example.org/gone").mock(
        return_value=httpx.Response(404, headers={"X-Thing": "1"}, text="nope")
    )
    response = http.get("https://public.example.org/gone")
    assert response.status == 404
    assert response.ok is False
    assert response.headers["x-thing"] == "1"
    assert response.text == "nope"


@respx.mock
def test_requests_carry_the_claimcheck_user_agent_and_params() -> None:
    route = respx.get("https://api.example.org/q").mock(return_value=httpx.Response(200))
    response = http.get("https://api.example.org/q", params={"q": "moon landing"})
    sent = route.calls.last.request
    assert sent.headers["user-agent"] == http.USER_AGENT
    assert sent.url.params["q"] == "moon landing"
    assert response.final_url == "https://api.example.org/q"


@respx.mock
def test_invalid_json_raises_bad_json() -> None:
    respx.get("https://api.example.org/j").mock(
        return_value=httpx.Response(200, headers={"Content-Type": "application/json"}, text="{")
    )
    response = http.get("https://api.example.org/j")
    with pytest.raises(http.BadJSON) as caught:
        response.json()
    assert caught.value.kind == "bad_json"
    assert isinstance(caught.value, http.HttpError)


@respx.mock
def test_logs_name_the_host_and_never_the_query_or_headers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    respx.get("https://api.example.org/q").mock(return_value=httpx.Response(200))
    with caplog.at_level(logging.DEBUG, logger="integrations.http"):
        http.get(
            "https://api.example.org/q?token=S3CRET-IN-URL",
            params={"key": "S3CRET-PARAM"},
            headers={"X-Api-Key": "S3CRET-HEADER"},
        )
    records = [r for r in caplog.records if r.name == "integrations.http"]
    assert records
    assert records[-1].__dict__["host"] == "api.example.org"
    assert records[-1].__dict__["status"] == 200
    assert isinstance(records[-1].__dict__["elapsed_ms"], int)
    for record in records:
        dumped = record.getMessage() + repr(vars(record))
        assert "S3CRET" not in dumped


# --- charsets -----------------------------------------------------------------------------------


@respx.mock
def test_a_latin1_page_declared_in_the_header_decodes() -> None:
    body = "<html><body>Café à Genève, façade</body></html>".encode("latin-1")
    respx.get("https://public.example.org/fr").mock(
        return_value=httpx.Response(
            200, headers={"Content-Type": "text/html; charset=ISO-8859-1"}, content=body
        )
    )
    response = http.get("https://public.example.org/fr")
    assert "Café à Genève, façade" in response.text
    assert response.content_type == "text/html"


@respx.mock
def test_a_windows_1251_page_declared_only_in_meta_decodes() -> None:
    text = "Москва — столица России"
    body = f'<html><head><meta charset="windows-1251"></head><body>{text}</body></html>'
    respx.get("https://public.example.org/ru").mock(
        return_value=httpx.Response(
            200, headers={"Content-Type": "text/html"}, content=body.encode("cp1251")
        )
    )
    response = http.get("https://public.example.org/ru")
    assert response.encoding == "cp1251"
    assert text in response.text


@respx.mock
def test_an_http_equiv_declaration_is_honoured() -> None:
    text = "Ελληνικά κείμενα"
    body = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-7">'
        f"</head><body>{text}</body></html>"
    )
    respx.get("https://public.example.org/el").mock(
        return_value=httpx.Response(
            200, headers={"Content-Type": "text/html"}, content=body.encode("iso-8859-7")
        )
    )
    assert text in http.get("https://public.example.org/el").text


@respx.mock
def test_an_unknown_declared_charset_falls_back_to_utf8() -> None:
    text = "Zürich, São Paulo, Kraków"
    respx.get("https://public.example.org/u").mock(
        return_value=httpx.Response(
            200,
            headers={"Content-Type": "text/html; charset=no-such-charset"},
            content=f"<p>{text}</p>".encode(),
        )
    )
    response = http.get("https://public.example.org/u")
    assert response.encoding == "utf-8"
    assert text in response.text


@pytest.mark.parametrize(
    "text",
    [
        "Le café était fermé à cause de la grève générale.",
        "El niño comió paella en Sevilla, ¿verdad? Sí, señor.",
    ],
)
@respx.mock
def test_a_wrong_utf8_declaration_on_windows_1252_bytes_is_not_trusted(text: str) -> None:
    respx.get("https://public.example.org/wrong").mock(
        return_value=httpx.Response(
            200,
            headers={"Content-Type": "text/plain; charset=utf-8"},
            content=text.encode("cp1252"),
        )
    )
    response = http.get("https://public.example.org/wrong")
    assert response.text == text


@respx.mock
def test_an_undeclared_utf8_page_decodes_as_utf8() -> None:
    text = "naïve “quotes” — 東京"
    respx.get("https://public.example.org/none").mock(
        return_value=httpx.Response(200, content=f"<p>{text}</p>".encode())
    )
    response = http.get("https://public.example.org/none")
    assert response.encoding == "utf-8"
    assert text in response.text


def test_undecodable_bytes_become_replacement_characters_not_errors() -> None:
    response = http.Response(
        url="u",
        final_url="u",
        status=200,
        headers={},
        content=b"ok \xff\xfe\xfd",
        content_type="text/plain",
        encoding="utf-8",
        elapsed_ms=1,
        redirects=[],
        truncated=False,
    )
    assert response.text.startswith("ok ")
    assert "\ufffd" in response.text


# --- timeouts -----------------------------------------------------------------------------------


@pytest.mark.parametrize("error", [httpx.ReadTimeout, httpx.ConnectTimeout, httpx.PoolTimeout])
@respx.mock
def test_a_timeout_becomes_fetch_timeout(error: type[Exception]) -> None:
    respx.get("https://public.example.org/slow").mock(side_effect=error)
    with pytest.raises(http.FetchTimeout) as caught:
        http.get("https://public.example.org/slow")
    assert caught.value.kind == "timeout"
    assert caught.value.url == "https://public.example.org/slow"


@respx.mock
def test_a_refused_connection_becomes_connect_failed() -> None:
    respx.get("https://public.example.org/down").mock(side_effect=httpx.ConnectError)
    with pytest.raises(http.ConnectFailed) as caught:
        http.get("https://public.example.org/down")
    assert caught.value.dns is False


# --- async --------------------------------------------------------------------------------------


@respx.mock
def test_the_async_variant_fetches_several_urls_concurrently() -> None:
    respx.get("https://public.example.org/one").mock(return_value=httpx.Response(200, text="1"))
    respx.get("https://other.example.net/two").mock(
        return_value=httpx.Response(302, headers={"Location": "/three"})
    )
    respx.get("https://other.example.net/three").mock(return_value=httpx.Response(200, text="3"))

    async def both() -> list[http.Response]:
        return list(
            await asyncio.gather(
                http.aget("https://public.example.org/one"),
                http.arequest("GET", "https://other.example.net/two"),
            )
        )

    one, three = asyncio.run(both())
    assert one.text == "1"
    assert three.text == "3"
    assert three.redirects == ["https://other.example.net/three"]


def test_the_async_variant_refuses_a_redirect_to_a_private_address() -> None:
    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://public.example.org/").mock(
            return_value=httpx.Response(302, headers={"Location": "http://10.0.0.7/"})
        )
        private = mock.get("http://10.0.0.7/").mock(return_value=httpx.Response(200))
        with pytest.raises(http.BlockedURL):
            asyncio.run(http.aget("https://public.example.org/"))
    assert not private.called


@respx.mock
def test_the_async_variant_enforces_the_cap_and_maps_timeouts() -> None:
    respx.get("https://public.example.org/big").mock(
        return_value=httpx.Response(200, stream=ChunkStream([b"a" * 600, b"b" * 600]))
    )
    respx.get("https://public.example.org/slow").mock(side_effect=httpx.ReadTimeout)
    with pytest.raises(http.TooLarge):
        asyncio.run(http.aget("https://public.example.org/big", max_bytes=1000))
    truncated = asyncio.run(
        http.aget("https://public.example.org/big", max_bytes=1000, truncate=True)
    )
    assert len(truncated.content) == 1000
    assert truncated.truncated is True
    with pytest.raises(http.FetchTimeout):
        asyncio.run(http.aget("https://public.example.org/slow"))


@pytest.mark.usefixtures("allow_loopback")
def test_the_async_variant_reaches_a_real_local_server(local_server: str) -> None:
    response = asyncio.run(http.aget(f"{local_server}/redirect"))
    assert response.content == PAGE
    assert response.redirects == [f"{local_server}/page"]
    with pytest.raises(http.TooLarge):
        asyncio.run(http.aget(f"{local_server}/big", max_bytes=100_000))


def test_the_async_variant_refuses_a_local_server_with_loopback_off(local_server: str) -> None:
    with pytest.raises(http.BlockedURL):
        asyncio.run(http.aget(f"{local_server}/page"))


@pytest.mark.usefixtures("allow_loopback")
def test_the_async_deadline_covers_a_body_that_keeps_dripping(local_server: str) -> None:
    started = time.monotonic()
    with pytest.raises(http.FetchTimeout):
        asyncio.run(http.aget(f"{local_server}/drip", timeout=0.5))
    assert time.monotonic() - started < 2.0


@pytest.mark.usefixtures("allow_loopback")
def test_the_async_deadline_cuts_a_read_that_stalls(local_server: str) -> None:
    started = time.monotonic()
    with pytest.raises(http.FetchTimeout):
        asyncio.run(http.aget(f"{local_server}/stall", timeout=2.0))
    assert time.monotonic() - started < 2.8


def test_offline_refuses_every_connection_and_ends_with_its_block(settings: Any) -> None:
    settings.CLAIMCHECK_HTTP_ALLOW_LOOPBACK = True
    with http.offline():
        with pytest.raises(http.Offline):
            http.request("GET", "http://127.0.0.1:9/")
        with pytest.raises(http.Offline):
            http.request("GET", "http://127.0.0.1:9/", trusted=True)
    with pytest.raises(http.ConnectFailed) as caught:
        http.request("GET", "http://127.0.0.1:9/", timeout=2)  # port 9: nothing listens
    assert not isinstance(caught.value, http.Offline)
