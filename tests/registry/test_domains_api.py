"""The domains API: admins curate the registry; everyone else is turned away."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from registry.models import Domain, Tier
from registry.weighing import weigh_source
from tests.factories import DomainFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_api(admin_api_token: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {admin_api_token}"})


def _post(client: Client, body: Any) -> Any:
    return client.post("/api/domains", data=json.dumps(body), content_type="application/json")


def _patch(client: Client, key: str, body: Any) -> Any:
    return client.patch(
        f"/api/domains/{key}", data=json.dumps(body), content_type="application/json"
    )


# --- admins -------------------------------------------------------------------------------------


def test_admins_list_the_registry_with_counts(admin_api: Client) -> None:
    response = admin_api.get("/api/domains", {"limit": 5})

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == Domain.objects.count() > 5
    assert len(body["items"]) == 5
    assert [item["name"] for item in body["items"]] == sorted(
        item["name"] for item in body["items"]
    )


def test_admins_search_by_name_or_note_and_filter_by_tier(admin_api: Client) -> None:
    DomainFactory.create(name="spam.example", denied=True, note="link farm")

    by_name = admin_api.get("/api/domains", {"search": "reuters"}).json()
    by_note = admin_api.get("/api/domains", {"search": "LINK FARM"}).json()
    wires = admin_api.get("/api/domains", {"tier": "wire", "limit": "1000"}).json()
    denied = admin_api.get("/api/domains", {"denied": "true"}).json()

    assert [item["name"] for item in by_name["items"]] == ["reuters.com"]
    assert [item["name"] for item in by_note["items"]] == ["spam.example"]
    assert {item["tier"] for item in wires["items"]} == {"wire"}
    assert "apnews.com" in {item["name"] for item in wires["items"]}
    assert [item["name"] for item in denied["items"]] == ["spam.example"]


def test_admins_read_one_domain_by_name_or_id(admin_api: Client) -> None:
    domain = Domain.objects.get(name=".gov")

    by_name = admin_api.get("/api/domains/.gov")
    by_id = admin_api.get(f"/api/domains/{domain.pk}")

    assert by_name.status_code == by_id.status_code == 200
    assert by_name.json() == by_id.json()
    assert by_name.json()["tier"] == "official"
    assert admin_api.get("/api/domains/nowhere.example").status_code == 404


def test_admins_create_a_domain_that_takes_effect_at_once(
    admin_api: Client, admin_user: Any
) -> None:
    response = _post(
        admin_api,
        {"name": "*.Gazette.example", "tier": "trade", "weight_override": 0.7, "note": "Gazette"},
    )

    assert response.status_code == 201
    body = response.json()
    assert body["name"] == ".gazette.example"
    assert body["updated_by"] == admin_user.username
    assert Domain.objects.get(name=".gazette.example").updated_by == admin_user
    rule = weigh_source("https://www.gazette.example/a")
    assert (rule.tier, rule.weight) == ("trade", 0.7)


def test_admins_patch_a_domain_by_name(admin_api: Client, admin_user: Any) -> None:
    response = _patch(admin_api, "Reuters.com", {"denied": True, "note": "paused for review"})

    assert response.status_code == 200
    reuters = Domain.objects.get(name="reuters.com")
    assert (reuters.denied, reuters.note, reuters.tier) == (True, "paused for review", "wire")
    assert reuters.updated_by == admin_user
    assert weigh_source("https://www.reuters.com/").denied


def test_admins_patch_a_domain_by_id_and_can_clear_the_weight(admin_api: Client) -> None:
    domain = DomainFactory.create(name="weighted.example", tier=Tier.TRADE, weight_override=0.9)

    response = _patch(admin_api, str(domain.pk), {"tier": "wire", "weight_override": None})

    assert response.status_code == 200
    domain.refresh_from_db()
    assert (domain.tier, domain.weight_override) == ("wire", None)
    assert weigh_source("https://weighted.example/").weight == 0.8


def test_admins_rename_a_domain(admin_api: Client) -> None:
    DomainFactory.create(name="old-name.example")

    response = _patch(admin_api, "old-name.example", {"name": "new-name.example"})

    assert response.status_code == 200
    assert Domain.objects.filter(name="new-name.example").exists()
    assert not Domain.objects.filter(name="old-name.example").exists()


def test_admins_delete_a_domain(admin_api: Client) -> None:
    DomainFactory.create(name="gone.example", denied=True)
    assert weigh_source("https://gone.example/").denied

    response = admin_api.delete("/api/domains/gone.example")

    assert response.status_code == 204
    assert not Domain.objects.filter(name="gone.example").exists()
    assert not weigh_source("https://gone.example/").denied
    assert admin_api.delete("/api/domains/gone.example").status_code == 404


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"name": "https://site.example/page", "tier": "trade"}, 422, "not a URL"),
        ({"name": "bad name.example"}, 422, "not a domain name"),
        ({"name": "site.example", "tier": "tabloid"}, 422, "invalid request"),
        ({"name": "site.example", "weight_override": 1.5}, 422, "invalid request"),
        ({"name": "site.example", "note": "x" * 301}, 422, "invalid request"),
        ({"tier": "trade"}, 422, "invalid request"),
        ({"name": "reuters.com", "tier": "trade"}, 409, "already in the registry"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_changes_nothing(
    admin_api: Client, body: dict[str, Any], status: int, message: str
) -> None:
    before = list(Domain.objects.order_by("name").values_list("name", "tier", "updated_at"))

    response = _post(admin_api, body)

    assert response.status_code == status
    payload = response.json()
    assert set(payload) == {"error", "details"}
    assert message in json.dumps(payload)
    assert list(Domain.objects.order_by("name").values_list("name", "tier", "updated_at")) == before


def test_malformed_json_is_a_client_error(admin_api: Client) -> None:
    response = admin_api.post("/api/domains", data="{not json", content_type="application/json")

    assert 400 <= response.status_code < 500
    assert not Domain.objects.filter(name="not json").exists()


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"tier": "tabloid"}, 422),
        ({"weight_override": -0.1}, 422),
        ({"name": "bad name"}, 422),
        ({"name": "apnews.com"}, 409),
        ({"tier": None}, 422),
        ({}, 422),
    ],
)
def test_a_bad_patch_changes_nothing(admin_api: Client, body: dict[str, Any], status: int) -> None:
    before = Domain.objects.get(name="reuters.com")

    response = _patch(admin_api, "reuters.com", body)

    assert response.status_code == status
    assert response.json()["error"]
    after = Domain.objects.get(name="reuters.com")
    assert (after.name, after.tier, after.weight_override, after.updated_at) == (
        before.name,
        before.tier,
        before.weight_override,
        before.updated_at,
    )


def test_patching_an_unknown_domain_is_404(admin_api: Client) -> None:
    assert _patch(admin_api, "nowhere.example", {"tier": "wire"}).status_code == 404


# --- everyone else ------------------------------------------------------------------------------


def test_editors_get_403_on_every_domains_endpoint(api: Client) -> None:
    before = Domain.objects.count()
    responses = [
        api.get("/api/domains"),
        api.get("/api/domains/reuters.com"),
        _post(api, {"name": "new.example", "tier": "wire"}),
        _patch(api, "reuters.com", {"denied": True}),
        api.delete("/api/domains/reuters.com"),
    ]

    assert [r.status_code for r in responses] == [403] * 5
    assert all(
        r.json() == {"error": "forbidden", "details": "this needs the admins group"}
        for r in responses
    )
    assert Domain.objects.count() == before
    assert not Domain.objects.get(name="reuters.com").denied


def test_requests_without_a_token_are_401() -> None:
    response = Client().get("/api/domains")

    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


def test_filters_left_empty_filter_nothing(admin_api: Client) -> None:
    every = admin_api.get("/api/domains", {"limit": "1000"}).json()["count"]
    blank = admin_api.get("/api/domains?tier=&denied=&search=&limit=1000")
    assert blank.status_code == 200
    assert blank.json()["count"] == every
