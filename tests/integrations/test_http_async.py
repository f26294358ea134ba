"""The async variant of the outbound HTTP request: the same guard, cap, redirects and deadline
as the blocking one, against respx routes and a real server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
import respx

from integrations import http
from tests.integrations.http_doubles import PAGE, ChunkStream

pytestmark = pytest.mark.usefixtures("fake_dns")


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
