"""Loopback and trusted endpoints of the outbound HTTP module, against a real server on
127.0.0.1: what the loopback setting and a trusted call open, and what they still refuse.
"""

from __future__ import annotations

import threading
import time
from http.server import ThreadingHTTPServer

import pytest

from integrations import http
from tests.integrations.http_doubles import FAKE_DNS, PAGE, LocalHandler

pytestmark = pytest.mark.usefixtures("fake_dns")


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
