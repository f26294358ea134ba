"""Bad bytes, big bodies, chunked bodies and unknown fields, replayed against the real WSGI
entry point from raw environs (Django's own request parsing, no test client): each is refused
with a clear 4xx in the API's shape and writes nothing, and a chunked body is read."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db.models import Max
from django_q.models import OrmQ

from claims.models import Claim
from decisions.models import Comment, Override
from harvester.models import SearchRun
from registry.models import Domain, DomainChange, EntityAlias
from tests.factories import DecidedClaimFactory, DomainFactory, VerdictFactory
from tests.rawwsgi import RawResponse, wsgi_request

pytestmark = pytest.mark.django_db

TEN_MB = b'{"text": "The bridge opened to traffic", "source_channel": "' + b"x" * 10_000_000 + b'"}'
CLAIM = "The bridge over the Karsfeld river opened to traffic in June 2024"


def written() -> tuple[Any, ...]:
    """What any of these requests could have written: row counts and the last changes."""
    counts = tuple(
        model.objects.count()
        for model in (Claim, Override, Comment, SearchRun, Domain, DomainChange, EntityAlias, OrmQ)
    )
    last = (
        Claim.objects.aggregate(Max("version")),
        Domain.objects.aggregate(Max("updated_at")),
        EntityAlias.objects.aggregate(Max("updated_at")),
    )
    return counts + last


def send(
    token: str,
    method: str,
    path: str,
    body: bytes | Any,
    *,
    content_type: str | None = "application/json",
    chunked: bool = False,
) -> RawResponse:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    return wsgi_request(method, path, body=raw, headers=headers, chunked=chunked)


def refused(response: RawResponse, status: int) -> Any:
    """The API's error shape with this status; answers its details."""
    assert response.status == status, response.body[:500]
    body = response.json()
    assert set(body) == {"error", "details"}
    assert body["details"]
    return body["details"]


def fields(response: RawResponse) -> list[str]:
    return [item["field"] for item in refused(response, 422)]


# --- big bodies ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type", ["text/plain", None, "multipart/form-data; boundary=xx", "application/json"]
)
@pytest.mark.parametrize("path", ["/api/claims", "/api/domains"])
def test_a_ten_megabyte_body_answers_413_whatever_its_type(
    admin_api_token: str, content_type: str | None, path: str
) -> None:
    before = written()
    response = send(admin_api_token, "POST", path, TEN_MB, content_type=content_type)
    details = refused(response, 413)
    assert response.json()["error"] == "request too large"
    assert "at most 2621440 bytes" in details
    assert written() == before


def test_a_ten_megabyte_body_sent_in_chunks_answers_413(api_token: str) -> None:
    before = written()
    refused(send(api_token, "POST", "/api/claims", TEN_MB, chunked=True), 413)
    assert written() == before


# --- chunked bodies ------------------------------------------------------------------------------


def test_a_claim_sent_in_chunks_is_read_and_queued(api_token: str) -> None:
    response = send(
        api_token, "POST", "/api/claims", {"text": CLAIM, "source_channel": "@desk"}, chunked=True
    )
    assert response.status == 202, response.body
    claim = Claim.objects.get(pk=response.json()["ids"][0])
    assert (claim.text, claim.source_channel) == (CLAIM, "@desk")


def test_a_chunked_body_the_server_cannot_read_answers_411(api_token: str) -> None:
    before = written()
    response = wsgi_request(
        "POST",
        "/api/claims",
        body=json.dumps({"text": CLAIM}).encode(),
        headers={"Authorization": f"Bearer {api_token}", "Content-Type": "application/json"},
        chunked=True,
        input_terminated=False,
    )
    assert "Content-Length" in refused(response, 411)
    assert written() == before


# --- text no field can store ---------------------------------------------------------------------

SURROGATE = b'"\\ud800"'


def _claim_with(channel: bytes) -> bytes:
    return b'{"text": "' + CLAIM.encode() + b'", "source_channel": ' + channel + b"}"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (_claim_with(SURROGATE), "source_channel"),
        (
            b"[" + _claim_with(b'"@desk"') + b", " + _claim_with(SURROGATE) + b"]",
            "1.source_channel",
        ),
        # The same surrogate as raw bytes, and a byte that is not UTF-8 at all.
        (_claim_with(b'"\xed\xa0\x80"'), "source_channel"),
        (_claim_with(b'"@desk \xff"'), "source_channel"),
    ],
)
def test_a_lone_surrogate_in_a_claim_answers_422_naming_the_field(
    api_token: str, body: bytes, field: str
) -> None:
    before = written()
    response = send(api_token, "POST", "/api/claims", body)
    assert fields(response) == [field]
    assert "Unicode" in response.json()["details"][0]["message"]
    assert written() == before


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_body_that_is_not_utf8_answers_422_and_changes_nothing(
    api_token: str, encoding: str
) -> None:
    before = written()
    body = json.dumps({"text": CLAIM, "source_channel": "@desk"}).encode(encoding)
    response = send(api_token, "POST", "/api/claims", body)
    assert response.status == 422
    assert "must be JSON in UTF-8" in response.json()["details"][0]["message"]
    assert written() == before


def test_a_utf8_body_with_a_byte_order_mark_is_read(api_token: str) -> None:
    body = "\ufeff".encode() + json.dumps({"text": CLAIM}).encode()
    response = send(api_token, "POST", "/api/claims", body)
    assert response.status in (201, 202), response.body


def test_a_lone_surrogate_in_an_override_reason_answers_422(api_token: str) -> None:
    claim = DecidedClaimFactory.create()
    VerdictFactory.create(claim=claim, outcome="true")
    before = written()
    body = b'{"outcome": "false", "reason": "see \\udfff"}'
    response = send(api_token, "POST", f"/api/claims/{claim.pk}/override", body)
    assert fields(response) == ["reason"]
    assert written() == before


def test_a_lone_surrogate_in_a_search_query_answers_422(api_token: str) -> None:
    before = written()
    response = send(api_token, "POST", "/api/search-runs", b'{"query": "battery \\ud800"}')
    assert fields(response) == ["query"]
    assert written() == before


def test_a_lone_surrogate_in_a_field_name_is_named_escaped(api_token: str) -> None:
    response = send(api_token, "POST", "/api/claims", b'{"text": "a", "\\ud800": 1}')
    assert fields(response) == ["\\ud800"]


@pytest.mark.parametrize("content_type", ["text/plain", None, "application/x-www-form-urlencoded"])
def test_a_nul_in_json_answers_422_whatever_the_content_type(
    api_token: str, content_type: str | None
) -> None:
    before = written()
    body = {"text": CLAIM + "\x00"}
    response = send(api_token, "POST", "/api/claims", body, content_type=content_type)
    assert fields(response) == ["text"]
    assert "NUL" in response.json()["details"][0]["message"]
    assert written() == before


# --- dates ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [99999999999, -62135596800, 1717200000.5, "1717200000"])
@pytest.mark.parametrize("field", ["timeframe_start", "timeframe_end"])
def test_a_timeframe_given_as_a_number_answers_422(api_token: str, value: Any, field: str) -> None:
    before = written()
    response = send(api_token, "POST", "/api/claims", {"text": CLAIM, field: value})
    assert fields(response) == [field]
    assert "not a number" in response.json()["details"][0]["message"]
    assert written() == before


def test_a_timeframe_written_as_a_date_is_still_accepted(api_token: str) -> None:
    body = {"text": CLAIM, "timeframe_start": "2024-06-01", "timeframe_end": "2024-06-30"}
    response = send(api_token, "POST", "/api/claims", body)
    assert response.status == 202, response.body
    claim = Claim.objects.get()
    assert claim.timeframe_start is not None and claim.timeframe_end is not None
    assert (claim.timeframe_start.date().isoformat(), claim.timeframe_end.date().isoformat()) == (
        "2024-06-01",
        "2024-06-30",
    )


def test_a_date_filter_given_as_a_number_answers_422(api_token: str) -> None:
    response = wsgi_request(
        "GET", "/api/claims?from=1717200000", headers={"Authorization": f"Bearer {api_token}"}
    )
    assert fields(response) == ["from"]


# --- unknown fields ------------------------------------------------------------------------------


def _write_requests() -> list[tuple[str, str, Any, str]]:
    """Every write endpoint of the API with a body naming a field it does not have:
    (method, path, body, the field named back)."""
    claim = DecidedClaimFactory.create()
    VerdictFactory.create(claim=claim, outcome="true")
    domain = DomainFactory.create(name="unknown-fields.example")
    alias = EntityAlias.objects.create(name="Kyiv", alias="Kyjiw", kind="place")
    return [
        (
            "POST",
            "/api/claims",
            {"text": CLAIM, "timeframe_strat": "2024-06-01"},
            "timeframe_strat",
        ),
        ("POST", "/api/claims", [{"text": CLAIM}, {"text": CLAIM, "channel": "x"}], "1.channel"),
        (
            "POST",
            f"/api/claims/{claim.pk}/override",
            {"outcome": "false", "reason": "retracted", "by": "ed"},
            "by",
        ),
        ("POST", f"/api/claims/{claim.pk}/review", {"note": "fine"}, "note"),
        ("POST", f"/api/claims/{claim.pk}/take", {"for": "ed"}, "for"),
        ("POST", f"/api/claims/{claim.pk}/release", {"to": "ed"}, "to"),
        ("POST", f"/api/claims/{claim.pk}/rerun", {"soon": True}, "soon"),
        ("POST", f"/api/claims/{claim.pk}/comments", {"text": "ok", "by": "ed"}, "by"),
        ("POST", "/api/search-runs", {"query": "battery passport", "max": 3}, "max"),
        (
            "POST",
            "/api/search-runs",
            {"query": "battery", "options": {"limit": 3}},
            "options.limit",
        ),
        ("POST", "/api/domains", {"name": "new.example", "weight": 0.5}, "weight"),
        ("PATCH", f"/api/domains/{domain.name}", {"tier": "wire", "weigth": 0.5}, "weigth"),
        ("POST", "/api/aliases", {"name": "Kyiv", "alias": "Kiew", "knd": "place"}, "knd"),
        ("PATCH", f"/api/aliases/{alias.pk}", {"note": "German", "kind_": "place"}, "kind_"),
    ]


def test_every_write_endpoint_refuses_an_unknown_field_and_writes_nothing(
    admin_api_token: str,
) -> None:
    for method, path, body, field in _write_requests():
        before = written()
        response = send(admin_api_token, method, path, body)
        assert fields(response) == [field], (method, path, response.body)
        assert response.json()["details"][0]["message"] == "Extra inputs are not permitted"
        assert written() == before, (method, path)


def test_the_unknown_field_check_covers_every_write_endpoint() -> None:
    """A new write endpoint joins the list above (and the InputSchema base) or fails here."""
    from config.api import api

    writes = set()
    for prefix, router in api._routers:
        for route, view in router.path_operations.items():
            for operation in view.operations:
                for method in operation.methods:
                    if method in {"POST", "PUT", "PATCH"}:
                        writes.add((method, prefix + route))
    assert writes == {
        ("POST", "/claims"),
        ("POST", "/claims/{claim_id}/override"),
        ("POST", "/claims/{claim_id}/review"),
        ("POST", "/claims/{claim_id}/take"),
        ("POST", "/claims/{claim_id}/release"),
        ("POST", "/claims/{claim_id}/rerun"),
        ("POST", "/claims/{claim_id}/comments"),
        ("POST", "/search-runs"),
        ("POST", "/domains"),
        ("PATCH", "/domains/{key}"),
        ("POST", "/aliases"),
        ("PATCH", "/aliases/{alias_id}"),
    }
