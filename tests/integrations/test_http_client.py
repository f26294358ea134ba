"""The outbound HTTP request: the byte cap, redirects, the response, logs and timeouts.

DNS is faked through `http.addresses.resolve`; upstreams are respx routes.
"""

from __future__ import annotations

import logging

import httpx
import pytest
import respx

from integrations import http
from tests.integrations.http_doubles import ChunkStream

pytestmark = pytest.mark.usefixtures("fake_dns")


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
