"""The SSRF guard of the outbound HTTP module: only plain http(s) to public addresses, checked
before the request, at every redirect hop and again when the socket is opened; and the offline
switch that refuses every connection.

DNS is faked through `http.addresses.resolve`; upstreams are respx routes.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import httpx
import pytest
import respx

from integrations import http

pytestmark = pytest.mark.usefixtures("fake_dns")


REAL_RESOLVE = http.resolve


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
