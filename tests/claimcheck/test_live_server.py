"""The requests that once answered 500 on the live server, sent to a real gunicorn on loopback:
big bodies of every type answer 413, a chunked body is read, bad text answers 422 naming the
field, and nothing is written by any refused request."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from claimcheck.models import ApiToken
from claims.models import Claim
from harvester.models import SearchRun
from registry.models import Domain
from tests.factories import UserFactory
from tests.processes import database_url, gunicorn

pytestmark = pytest.mark.django_db(transaction=True)

CLAIM = "The bridge over the Karsfeld river opened to traffic in June 2024"
TEN_MB = b'{"text": "The bridge opened to traffic", "source_channel": "' + b"x" * 10_000_000 + b'"}'


@pytest.fixture(scope="module")
def server(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any) -> Iterator[str]:
    """One server for the module, on the test database."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DJANGO_SECURE_COOKIES": "false",
        "DATABASE_URL": database_url(),
        "CLAIMCHECK_LOG_LEVEL": "WARNING",
    }
    env.pop("REDIS_URL", None)
    log: Path = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    with django_db_blocker.unblock(), gunicorn(env, log) as base:
        yield base


@pytest.fixture
def admin_token() -> str:
    """An admin who is also an editor: one token reaches every endpoint used here."""
    user = UserFactory(username="ada", groups=["admins", "editors"])
    return ApiToken.issue(user=user, name="tests")[1]


def written() -> tuple[int, ...]:
    return (Claim.objects.count(), SearchRun.objects.count(), Domain.objects.count())


def post(server: str, token: str, path: str, content: Any, **headers: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", **headers}
    return httpx.post(f"{server}{path}", content=content, headers=headers, timeout=60)


def assert_refused(response: httpx.Response, status: int) -> Any:
    assert response.status_code == status, response.text[:500]
    body = response.json()
    assert set(body) == {"error", "details"} and body["details"]
    return body["details"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "text/plain"},
        {},
        {"Content-Type": "multipart/form-data; boundary=xx"},
    ],
    ids=["text/plain", "no type", "multipart"],
)
@pytest.mark.parametrize("path", ["/api/claims", "/api/domains"])
def test_a_ten_megabyte_body_answers_413(
    server: str, admin_token: str, path: str, headers: dict[str, str]
) -> None:
    before = written()
    response = post(server, admin_token, path, TEN_MB, **headers)
    assert "at most" in assert_refused(response, 413)
    assert written() == before


def _in_chunks(body: bytes, size: int = 4096) -> Iterator[bytes]:
    """httpx sends an iterator with `Transfer-Encoding: chunked` and no Content-Length."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


def test_a_claim_sent_in_chunks_is_read(server: str, admin_token: str) -> None:
    body = b'{"text": "' + CLAIM.encode() + b'", "source_channel": "@desk"}'
    response = post(
        server,
        admin_token,
        "/api/claims",
        _in_chunks(body, 16),
        **{"Content-Type": "application/json"},
    )
    assert response.request.headers["Transfer-Encoding"] == "chunked"
    assert "Content-Length" not in response.request.headers
    assert response.status_code == 202, response.text
    claim = Claim.objects.get(pk=response.json()["ids"][0])
    assert (claim.text, claim.source_channel) == (CLAIM, "@desk")


def test_a_ten_megabyte_body_sent_in_chunks_answers_413(server: str, admin_token: str) -> None:
    before = written()
    response = post(server, admin_token, "/api/claims", _in_chunks(TEN_MB, 65_536))
    assert_refused(response, 413)
    assert written() == before


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (
            "/api/claims",
            b'{"text": "' + CLAIM.encode() + b'", "source_channel": "\\ud800"}',
            "source_channel",
        ),
        ("/api/search-runs", b'{"query": "battery \\ud800"}', "query"),
        ("/api/claims", b'{"text": "' + CLAIM.encode() + b'\\u0000"}', "text"),
        (
            "/api/claims",
            b'{"text": "' + CLAIM.encode() + b'", "timeframe_start": 99999999999}',
            "timeframe_start",
        ),
    ],
    ids=["surrogate in a claim", "surrogate in a search", "NUL as text/plain", "epoch timeframe"],
)
def test_bad_text_or_a_date_as_a_number_answers_422_naming_the_field(
    server: str, admin_token: str, path: str, body: bytes, field: str
) -> None:
    before = written()
    response = post(server, admin_token, path, body, **{"Content-Type": "text/plain"})
    assert [d["field"] for d in assert_refused(response, 422)] == [field]
    assert written() == before
