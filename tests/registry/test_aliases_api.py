"""The aliases API: admins read and change the entity alias table with their bearer tokens;
editors and outsiders are turned away; errors come in the API's one shape."""

from __future__ import annotations

import json
import re
import typing
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from claimcheck.models import ApiToken
from evidence.entities import entity_overlap, extract_entities
from registry.api import KindName
from registry.models import EntityAlias, EntityKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_api(admin_api_token: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {admin_api_token}"})


@pytest.fixture
def outsider_api(outsider: User) -> Client:
    _, raw = ApiToken.issue(user=outsider, name="tests")
    return Client(headers={"Authorization": f"Bearer {raw}"})


@pytest.fixture
def kiev() -> EntityAlias:
    return EntityAlias.objects.get(alias="Kiev")


def _post(client: Client, body: Any) -> Any:
    return client.post("/api/aliases", data=json.dumps(body), content_type="application/json")


def _patch(client: Client, pk: int, body: Any) -> Any:
    return client.patch(
        f"/api/aliases/{pk}", data=json.dumps(body), content_type="application/json"
    )


def _table() -> list[tuple[Any, ...]]:
    rows = EntityAlias.objects.order_by("pk")
    return list(rows.values_list("name", "alias", "kind", "note", "updated_at"))


# --- admins -------------------------------------------------------------------------------------


def test_admins_list_the_table_a_page_at_a_time(admin_api: Client) -> None:
    first = admin_api.get("/api/aliases", {"limit": 5}).json()
    second = admin_api.get("/api/aliases", {"limit": 5, "offset": 5}).json()

    table = list(EntityAlias.objects.order_by("name", "alias").values_list("alias", flat=True))
    assert first["count"] == second["count"] == len(table) > 10
    assert [item["alias"] for item in first["items"] + second["items"]] == table[:10]
    assert set(first["items"][0]) == {
        "id", "name", "alias", "kind", "note", "updated_at", "updated_by",
    }  # fmt: skip


def test_admins_search_and_filter_by_kind(admin_api: Client) -> None:
    def aliases(**params: str) -> list[str]:
        return [item["alias"] for item in admin_api.get("/api/aliases", params).json()["items"]]

    assert aliases(search="KHARKIV") == ["Kharkov", "Харків"]
    assert aliases(search="харків") == ["Харків"]
    assert aliases(search="kharkiv", kind="person") == []
    assert set(aliases(kind="place", limit="1000")) >= {"Kiev", "Odessa"}


_ALIAS_CELL = re.compile(r'<td class="alias-alias">([^<]*)</td>')


@pytest.mark.parametrize(
    ("search", "kind"), [("kyiv", ""), ("Odessa", ""), ("київ", ""), ("lv", "place"), ("x", "")]
)
def test_the_page_and_the_api_find_the_same_aliases(
    admin_client_: Client, admin_api: Client, search: str, kind: str
) -> None:
    page = admin_client_.get(reverse("aliases"), {"q": search, "kind": kind}).content.decode()
    params = {"search": search, **({"kind": kind} if kind else {})}
    api = admin_api.get("/api/aliases", params).json()["items"]
    assert _ALIAS_CELL.findall(page) == [item["alias"] for item in api]


def test_admins_read_one_alias_by_id(admin_api: Client, kiev: EntityAlias) -> None:
    response = admin_api.get(f"/api/aliases/{kiev.pk}")

    assert response.status_code == 200
    assert response.json() | {"updated_at": None} == {
        "id": kiev.pk,
        "name": "Kyiv",
        "alias": "Kiev",
        "kind": "place",
        "note": "",
        "updated_at": None,
        "updated_by": None,
    }
    missing = admin_api.get("/api/aliases/999999")
    assert missing.status_code == 404
    assert missing.json() == {"error": "not found", "details": "no alias 999999"}


def test_admins_add_an_alias_that_takes_effect_at_once(admin_api: Client, admin_user: User) -> None:
    claim, page = "Shares of Alphabet rose", "Shares of Google rose"
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 0.0

    response = _post(admin_api, {"name": "Alphabet", "alias": "Google", "kind": "organization"})

    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["alias"], body["kind"], body["note"]) == (
        "Alphabet",
        "Google",
        "organization",
        "",
    )
    assert body["updated_by"] == admin_user.username
    assert EntityAlias.objects.get(pk=body["id"]).updated_by == admin_user
    assert entity_overlap(extract_entities(claim), extract_entities(page)) == 1.0


def test_admins_change_an_alias(admin_api: Client, admin_user: User, kiev: EntityAlias) -> None:
    response = _patch(admin_api, kiev.pk, {"alias": "Kiew", "note": "the German spelling"})

    assert response.status_code == 200
    assert (response.json()["alias"], response.json()["updated_by"]) == ("Kiew", "ada")
    kiev.refresh_from_db()
    assert (kiev.name, kiev.alias, kiev.kind, kiev.note) == (
        "Kyiv",
        "Kiew",
        "place",
        "the German spelling",
    )
    assert kiev.updated_by == admin_user


def test_admins_remove_an_alias(admin_api: Client, kiev: EntityAlias) -> None:
    response = admin_api.delete(f"/api/aliases/{kiev.pk}")

    assert response.status_code == 204
    assert not EntityAlias.objects.filter(alias="Kiev").exists()
    assert admin_api.delete(f"/api/aliases/{kiev.pk}").status_code == 404


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "answer"),
    [
        (
            {"name": "Somewhere Else", "alias": "KIEV"},
            409,
            {
                "error": "alias exists",
                "details": [
                    {
                        "field": "alias",
                        "message": "KIEV is spelt like Kiev, already an alias of Kyiv",
                    }
                ],
            },
        ),
        (
            {"name": "Alphabet", "alias": "--"},
            422,
            {
                "error": "invalid request",
                "details": [{"field": "alias", "message": "alias: has no letters to match on"}],
            },
        ),
        (
            {"name": "   ", "alias": "Google"},
            422,
            {
                "error": "invalid request",
                "details": [{"field": "name", "message": "name: must not be empty"}],
            },
        ),
        ({"alias": "Google"}, 422, {"error": "invalid request", "field": "name"}),
        (
            {"name": "Alphabet", "alias": "Google", "kind": "company"},
            422,
            {"error": "invalid request", "field": "kind"},
        ),
        (
            {"name": "Alphabet", "alias": "Google", "note": "x" * 301},
            422,
            {"error": "invalid request", "field": "note"},
        ),
    ],
)
def test_bad_input_is_refused_in_the_error_shape_and_changes_nothing(
    admin_api: Client, body: dict[str, Any], status: int, answer: dict[str, Any]
) -> None:
    before = _table()

    response = _post(admin_api, body)

    assert response.status_code == status
    payload = response.json()
    assert set(payload) == {"error", "details"}
    if "field" in answer:
        assert payload["error"] == answer["error"]
        assert [item["field"] for item in payload["details"]] == [answer["field"]]
    else:
        assert payload == answer
    assert _table() == before


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"alias": "Odessa"}, 409, "alias exists"),
        ({"kind": "city"}, 422, "invalid request"),
        ({"name": None}, 422, "invalid request"),
        ({"name": ""}, 422, "invalid request"),
        ({}, 422, "invalid request"),
    ],
)
def test_a_bad_patch_changes_nothing(
    admin_api: Client, kiev: EntityAlias, body: dict[str, Any], status: int, error: str
) -> None:
    before = _table()

    response = _patch(admin_api, kiev.pk, body)

    assert response.status_code == status
    assert response.json()["error"] == error
    assert _table() == before


def test_patching_an_unknown_alias_is_404(admin_api: Client) -> None:
    assert _patch(admin_api, 999999, {"note": "x"}).status_code == 404


def test_the_kinds_the_api_accepts_are_the_models_kinds() -> None:
    assert list(typing.get_args(KindName)) == list(EntityKind.values)


# --- everyone else ------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["api", "outsider_api"])
def test_editors_and_outsiders_get_403_on_every_aliases_endpoint(
    request: pytest.FixtureRequest, persona: str, kiev: EntityAlias
) -> None:
    client: Client = request.getfixturevalue(persona)
    before = _table()
    responses = [
        client.get("/api/aliases"),
        client.get(f"/api/aliases/{kiev.pk}"),
        client.get("/api/aliases/999999"),
        _post(client, {"name": "Alphabet", "alias": "Google"}),
        _patch(client, kiev.pk, {"note": "x"}),
        client.delete(f"/api/aliases/{kiev.pk}"),
    ]

    assert [r.status_code for r in responses] == [403] * 6
    assert all(
        r.json() == {"error": "forbidden", "details": "this needs the admins group"}
        for r in responses
    )
    assert _table() == before


def test_requests_without_a_token_are_401() -> None:
    response = Client().get("/api/aliases")

    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


def test_a_kind_left_empty_filters_nothing(admin_api: Client) -> None:
    every = admin_api.get("/api/aliases", {"limit": "1000"}).json()["count"]
    blank = admin_api.get("/api/aliases?kind=&search=&limit=1000")
    assert blank.status_code == 200
    assert blank.json()["count"] == every
