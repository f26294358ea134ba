"""Every API error has one shape, {"error", "details"}, naming fields as the client sent them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from claims.models import Claim
from decisions.models import Override
from registry.models import Domain, EntityAlias
from tests.factories import ClaimFactory, DomainFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def _post(client: Client, url: str, raw: str) -> Any:
    return client.post(url, data=raw, content_type="application/json")


def test_a_missing_claim_on_override_is_a_404_in_the_usual_shape(api: Client) -> None:
    response = _post(api, "/api/claims/99999/override", '{"outcome": "false", "reason": "why"}')
    assert response.status_code == 404
    assert response.json() == {"error": "not found", "details": "no claim 99999"}


def test_a_bad_date_names_the_field_and_no_validator_internals(api: Client) -> None:
    response = _post(api, "/api/claims", '{"text": "A claim", "timeframe_start": "not a date"}')
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "invalid request"
    assert [d["field"] for d in body["details"]] == ["timeframe_start"]
    assert "valid date" in body["details"][0]["message"]
    assert "function-wrap" not in response.content.decode()


def test_a_list_item_is_named_by_its_position(api: Client) -> None:
    response = _post(api, "/api/claims", '[{"text": "A claim", "timeframe_end": "2024-13-01"}]')
    assert response.status_code == 422
    assert [d["field"] for d in response.json()["details"]] == ["0.timeframe_end"]


def test_malformed_json_says_where_it_broke(api: Client) -> None:
    response = _post(api, "/api/claims", '{"text": ')
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid JSON"
    assert "line 1 column" in body["details"]


def test_a_bad_query_parameter_names_the_parameter(api: Client) -> None:
    response = api.get("/api/claims?status=bogus")
    assert response.status_code == 422
    assert [d["field"] for d in response.json()["details"]] == ["status"]


def _shape(response: Any, status: int) -> Any:
    """The one shape: a label, and details that are a per-field list on every 422 and wherever
    a field is named, else one sentence."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error", "details"}
    assert isinstance(body["error"], str) and body["error"]
    return body


def _fields(body: Any) -> list[str]:
    assert isinstance(body["details"], list) and body["details"]
    for item in body["details"]:
        assert set(item) == {"field", "message"} and item["message"]
    return [item["field"] for item in body["details"]]


@pytest.fixture
def admin_api(admin_api_token: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {admin_api_token}"})


CLAIM_INPUTS = [
    ('{"text": ""}', ["text"]),
    ('{"text": "x"}', ["text"]),
    ('{"txt": "Veltria Motors opened a plant"}', ["text", "txt"]),
    ('{"text": "Veltria Motors opened a plant", "timeframe_start": "soon"}', ["timeframe_start"]),
    (
        '{"text": "Veltria Motors opened a plant", "timeframe_start": "2024-05-01",'
        ' "timeframe_end": "2024-01-01"}',
        ["timeframe_end"],
    ),
    (
        '{"text": "Veltria Motors opened a plant", "source_channel": "' + "c" * 300 + '"}',
        ["source_channel"],
    ),
    ('[{"text": "Veltria Motors opened a plant"}, {"text": ""}]', ["1.text"]),
    ("[]", [""]),
]


@pytest.mark.parametrize(("raw", "fields"), CLAIM_INPUTS)
def test_every_bad_claim_is_a_422_with_a_list_naming_its_fields(
    api: Client, raw: str, fields: list[str]
) -> None:
    body = _shape(_post(api, "/api/claims", raw), 422)
    assert body["error"] == "invalid request"
    assert _fields(body) == fields
    assert Claim.objects.count() == 0


@pytest.mark.parametrize(
    ("raw", "fields"),
    [
        ('{"outcome": "maybe", "reason": "why"}', ["outcome"]),
        ('{"outcome": "false", "reason": "  "}', ["reason"]),
        ('{"outcome": "false"}', ["reason"]),
        ('{"outcome": "false", "reason": "why", "note": "x"}', ["note"]),
    ],
)
def test_a_bad_override_is_a_422_like_any_other_bad_input(
    api: Client, raw: str, fields: list[str]
) -> None:
    verdict = VerdictFactory.create(outcome="true")
    body = _shape(_post(api, f"/api/claims/{verdict.claim_id}/override", raw), 422)
    assert body["error"] == "invalid request"
    assert _fields(body) == fields
    assert not Override.objects.exists()


def test_an_override_the_claims_state_refuses_is_a_409_naming_the_field(api: Client) -> None:
    decided = VerdictFactory.create(outcome="true")
    same = _post(
        api, f"/api/claims/{decided.claim_id}/override", '{"outcome": "true", "reason": "r"}'
    )
    body = _shape(same, 409)
    assert body["error"] == "cannot override"
    assert _fields(body) == ["outcome"]
    queued = ClaimFactory.create()
    early = _post(api, f"/api/claims/{queued.pk}/override", '{"outcome": "true", "reason": "r"}')
    assert _fields(_shape(early, 409)) == ["status"]
    assert not Override.objects.exists()


@pytest.mark.parametrize(
    ("url", "fields"),
    [
        ("/api/claims?outcome=maybe", ["outcome"]),
        ("/api/claims?limit=0", ["limit"]),
        ("/api/claims?from=yesterday", ["from"]),
        ("/api/search-runs?to=2024-13-40", ["to"]),
    ],
)
def test_a_bad_list_filter_is_a_422_naming_it(api: Client, url: str, fields: list[str]) -> None:
    body = _shape(api.get(url), 422)
    assert body["error"] == "invalid request"
    assert _fields(body) == fields


@pytest.mark.parametrize(
    ("raw", "fields"),
    [
        ('{"query": ""}', ["query"]),
        ('{"query": "x"}', ["query"]),
        ('{"query": "battery passport", "options": {"provider": "bing"}}', ["options.provider"]),
        ('{"query": "battery passport", "options": {"maxResults": 5000}}', ["options.maxResults"]),
        ('{"query": "battery passport", "options": {"max": 5}}', ["options.max"]),
    ],
)
def test_a_bad_search_run_is_a_422_naming_its_field(
    api: Client, raw: str, fields: list[str]
) -> None:
    body = _shape(_post(api, "/api/search-runs", raw), 422)
    assert body["error"] == "invalid request"
    assert _fields(body) == fields


@pytest.mark.parametrize(
    ("method", "url", "raw", "fields"),
    [
        ("post", "/api/domains", '{"name": ""}', ["name"]),
        ("post", "/api/domains", '{"name": "https://agency.example/"}', ["name"]),
        ("post", "/api/domains", '{"name": "agency.example", "tier": "gold"}', ["tier"]),
        ("patch", "/api/domains/agency.example", "{}", [""]),
        ("patch", "/api/domains/agency.example", '{"tier": null}', ["tier"]),
        ("post", "/api/aliases", '{"name": "Kyiv", "alias": "  "}', ["alias"]),
        ("post", "/api/aliases", '{"name": "Kyiv", "alias": "Kiev2", "kind": "city"}', ["kind"]),
    ],
)
def test_a_bad_domain_or_alias_is_a_422_naming_its_field(
    admin_api: Client, method: str, url: str, raw: str, fields: list[str]
) -> None:
    DomainFactory.create(name="agency.example", tier="official")
    domains, aliases = Domain.objects.count(), EntityAlias.objects.count()
    response = getattr(admin_api, method)(url, data=raw, content_type="application/json")
    body = _shape(response, 422)
    assert body["error"] == "invalid request"
    assert _fields(body) == fields
    assert (Domain.objects.count(), EntityAlias.objects.count()) == (domains, aliases)
    assert Domain.objects.get(name="agency.example").tier == "official"


def test_a_name_already_taken_is_a_409_naming_the_field(admin_api: Client) -> None:
    DomainFactory.create(name="agency.example")
    body = _shape(_post(admin_api, "/api/domains", '{"name": "agency.example"}'), 409)
    assert body["error"] == "domain exists"
    assert _fields(body) == ["name"]


@pytest.mark.parametrize(
    ("method", "url", "status", "error"),
    [
        ("get", "/api/claims/99999", 404, "not found"),
        ("get", "/api/search-runs/99999", 404, "not found"),
        ("get", "/api/no-such-route", 404, "not found"),
        ("delete", "/api/claims", 405, "method not allowed"),
        ("put", "/api/search-runs", 405, "method not allowed"),
        ("get", "/api/domains", 403, "forbidden"),
    ],
)
def test_a_refusal_with_no_field_at_fault_says_why_in_a_sentence(
    api: Client, method: str, url: str, status: int, error: str
) -> None:
    body = _shape(getattr(api, method)(url), status)
    assert body["error"] == error
    assert isinstance(body["details"], str) and body["details"]


def test_a_request_without_a_token_is_a_401_in_the_same_shape() -> None:
    body = _shape(Client().get("/api/claims"), 401)
    assert body == {"error": "unauthorized", "details": "a valid bearer token is required"}
