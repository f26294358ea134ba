"""Input no field can hold (NUL characters, huge offsets, oversized bodies, oversized batches)
gets a clear 4xx in the API's {"error", "details"} shape, and nothing is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from claimcheck.models import ApiToken
from claims.models import Claim
from decisions.models import Override
from registry.models import Domain
from tests.factories import DecidedClaimFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json")


def assert_error_shape(response: Any, status: int) -> None:
    assert response.status_code == status
    body = response.json()
    assert set(body) == {"error", "details"}
    assert body["details"]


@pytest.fixture
def admin_api(admin_api_token: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {admin_api_token}"})


def fields(response: Any) -> list[str]:
    return [item["field"] for item in response.json()["details"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"text": "The bridge opened\x00 to traffic"}, "text"),
        ({"text": "The bridge opened to traffic", "source_channel": "@desk\x00"}, "source_channel"),
        ([{"text": "The bridge opened to traffic"}, {"text": "The tunnel\x00 closed"}], "1.text"),
    ],
)
def test_a_nul_character_in_a_claim_is_refused_naming_the_field(
    api: Client, body: Any, field: str
) -> None:
    response = post(api, "/api/claims", body)
    assert_error_shape(response, 422)
    assert fields(response) == [field]
    assert "NUL" in response.json()["details"][0]["message"]
    assert not Claim.objects.exists()


def test_a_nul_character_in_an_override_reason_is_refused(api: Client) -> None:
    claim = DecidedClaimFactory.create()
    VerdictFactory.create(claim=claim, outcome="true")
    response = post(
        api, f"/api/claims/{claim.pk}/override", {"outcome": "false", "reason": "x\x00"}
    )
    assert_error_shape(response, 422)
    assert fields(response) == ["reason"]
    assert not Override.objects.exists()


def test_a_nul_character_in_a_domain_note_is_refused(admin_api: Client) -> None:
    before = Domain.objects.count()
    response = post(admin_api, "/api/domains", {"name": "nul.example", "note": "=\x00"})
    assert_error_shape(response, 422)
    assert fields(response) == ["note"]
    assert Domain.objects.count() == before


@pytest.mark.parametrize(
    "url",
    ["/api/claims?q=a%00b", "/api/search-runs?query=a%00b", "/api/domains?search=a%00b"],
)
def test_a_nul_character_in_a_filter_is_refused(admin_api: Client, url: str) -> None:
    assert_error_shape(admin_api.get(url), 400)


def test_a_nul_character_in_a_page_form_or_filter_is_refused(editor_client: Client) -> None:
    form = {"text": "The bridge opened\x00 to traffic"}
    urlencoded = "text=The+bridge+opened%00+to+traffic"
    assert editor_client.post("/claims/new/", form).status_code == 422
    assert (
        editor_client.post(
            "/claims/new/", urlencoded, content_type="application/x-www-form-urlencoded"
        ).status_code
        == 400
    )
    assert not Claim.objects.exists()
    assert editor_client.get("/?q=a%00b").status_code == 400
    assert editor_client.get("/search-runs/?q=a%00b").status_code == 400


@pytest.mark.parametrize("url", ["/api/claims", "/api/search-runs", "/api/domains"])
def test_a_huge_offset_is_refused_with_422(admin_api: Client, url: str) -> None:
    assert_error_shape(admin_api.get(url, {"offset": "99999999999999999999"}), 422)


def test_a_ten_megabyte_body_is_refused_in_the_api_shape(api: Client) -> None:
    body = {"text": "The bridge opened to traffic", "source_channel": "x" * 10_000_000}
    assert_error_shape(post(api, "/api/claims", body), 413)
    assert not Claim.objects.exists()


def test_a_batch_over_the_cap_is_refused_whole(api: Client) -> None:
    body = [{"text": f"Measure {n} was adopted by the council"} for n in range(201)]
    response = post(api, "/api/claims", body)
    assert_error_shape(response, 422)
    assert "at most 200" in json.dumps(response.json()["details"])
    assert not Claim.objects.exists()


def test_a_batch_at_the_cap_is_accepted(api: Client) -> None:
    body = [{"text": f"Measure {n} was adopted by the council"} for n in range(200)]
    assert post(api, "/api/claims", body).status_code == 202
    assert Claim.objects.count() == 200


def test_an_ordinary_api_call_still_works(api_token: str) -> None:
    client = Client(headers={"Authorization": f"Bearer {api_token}"})
    assert ApiToken.objects.count() == 1
    assert client.get("/api/claims", {"offset": 0}).status_code == 200
