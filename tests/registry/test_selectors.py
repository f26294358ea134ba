"""The domain registry list: the admin page and the domains API read it through one selector, so
a search finds the same domains in both, whether it matches the name or only the note."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from registry.models import Tier
from registry.selectors import domain_list
from tests.factories import DomainFactory

pytestmark = pytest.mark.django_db

_NAME_CELL = re.compile(r'<td class="mono nowrap">([^<]*)</td>')


@pytest.fixture(autouse=True)
def kestrels() -> None:
    DomainFactory(name="kestrel.example", tier=Tier.WIRE)
    DomainFactory(name="kestrel-watch.example", denied=True, note="link farm")
    DomainFactory(name="port-authority.example", tier=Tier.OFFICIAL, note="Kestrel Bay harbour")


@pytest.fixture
def admin_api(admin_api_token: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {admin_api_token}"})


def _page_names(client: Client, **params: str) -> list[str]:
    body = client.get(reverse("domains"), params).content.decode()
    return _NAME_CELL.findall(body)


def _api_names(client: Client, **params: str) -> list[str]:
    return [item["name"] for item in client.get("/api/domains", params).json()["items"]]


def test_a_search_matches_the_name_or_the_note_ignoring_case_and_spaces() -> None:
    def names(search: str) -> list[str]:
        return [domain.name for domain in domain_list(search=search)]

    assert names("  KESTREL ") == [
        "kestrel-watch.example",
        "kestrel.example",
        "port-authority.example",
    ]
    assert names("bay harbour") == ["port-authority.example"]
    assert names("Link Farm") == ["kestrel-watch.example"]


def test_the_list_filters_by_tier_and_access() -> None:
    assert [d.name for d in domain_list(search="kestrel", tier=Tier.WIRE)] == ["kestrel.example"]
    assert [d.name for d in domain_list(search="kestrel", denied=True)] == ["kestrel-watch.example"]
    assert "kestrel-watch.example" not in {d.name for d in domain_list(denied=False)}


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        ("kestrel", ["kestrel-watch.example", "kestrel.example", "port-authority.example"]),
        ("Bay Harbour", ["port-authority.example"]),
        ("LINK FARM", ["kestrel-watch.example"]),
        ("kestrel-watch", ["kestrel-watch.example"]),
        ("no-such-domain", []),
    ],
)
def test_the_page_and_the_api_find_the_same_domains_for_a_search(
    admin_client_: Client, admin_api: Client, search: str, expected: list[str]
) -> None:
    assert _page_names(admin_client_, q=search) == expected
    assert _api_names(admin_api, search=search) == expected


def test_the_page_and_the_api_filter_a_search_by_tier_and_access_alike(
    admin_client_: Client, admin_api: Client
) -> None:
    assert _page_names(admin_client_, q="kestrel", tier="official") == ["port-authority.example"]
    assert _api_names(admin_api, search="kestrel", tier="official") == ["port-authority.example"]
    assert _page_names(admin_client_, q="kestrel", access="denied") == ["kestrel-watch.example"]
    assert _api_names(admin_api, search="kestrel", denied="true") == ["kestrel-watch.example"]
    assert _page_names(admin_client_, q="kestrel", access="allowed") == _api_names(
        admin_api, search="kestrel", denied="false"
    )
