"""Dates far outside 1900-2100 are refused at every door, and one such row already stored
never breaks a page; `repair_dates` clears it."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client

from claims.models import Claim
from tests.factories import ClaimFactory

pytestmark = pytest.mark.django_db

FAR_END = "9999-12-31T23:00:00-05:00"
FAR_START = "0001-01-01T00:00:00+05:00"


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    "fields",
    [
        {"timeframe_end": FAR_END},
        {"timeframe_start": FAR_START},
        {"timeframe_start": "1899-12-31"},
        {"timeframe_end": "2101-01-01"},
    ],
)
def test_the_api_refuses_a_timeframe_outside_the_range_with_422(api: Client, fields: Any) -> None:
    response = post(api, "/api/claims", {"text": "The bridge opened to traffic", **fields})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid request"
    assert "1900-01-01" in json.dumps(response.json()["details"])
    assert not Claim.objects.exists()


def test_a_batch_with_one_far_date_is_refused_whole(api: Client) -> None:
    body = [
        {"text": "The bridge opened to traffic"},
        {"text": "The tunnel closed for repairs", "timeframe_end": FAR_END},
    ]
    assert post(api, "/api/claims", body).status_code == 422
    assert not Claim.objects.exists()


def test_the_api_accepts_the_edges_of_the_range(api: Client) -> None:
    body = {
        "text": "The bridge opened to traffic",
        "timeframe_start": "1900-01-01",
        "timeframe_end": "2100-12-31T23:00:00-05:00",
    }
    assert post(api, "/api/claims", body).status_code == 202


@pytest.mark.parametrize("url", ["/api/claims?to=9999-12-31", "/api/search-runs?to=9999-12-31"])
def test_list_filters_refuse_a_far_date_with_422(api: Client, url: str) -> None:
    response = api.get(url)
    assert response.status_code == 422
    assert response.json()["error"] == "invalid request"


def test_the_submit_form_refuses_a_far_date_with_422(editor_client: Client) -> None:
    response = editor_client.post(
        "/claims/new/", {"text": "The bridge opened to traffic", "timeframe_end": "9999-12-31"}
    )
    assert response.status_code == 422
    assert "between 1900-01-01 and 2100-12-31" in response.content.decode()
    assert not Claim.objects.exists()


@pytest.mark.parametrize("url", ["/?created_to=9999-12-31", "/search-runs/?to=9999-12-31"])
def test_page_filters_refuse_a_far_date_with_422(editor_client: Client, url: str) -> None:
    ClaimFactory(text="The bridge opened to traffic")
    response = editor_client.get(url)
    assert response.status_code == 422
    assert "between 1900-01-01 and 2100-12-31" in response.content.decode()


def test_the_verify_command_refuses_a_far_date() -> None:
    with pytest.raises(CommandError, match="1900-01-01"):
        call_command("verify", "The bridge opened to traffic", "--end", "9999-12-31")
    assert not Claim.objects.exists()


def _store_far_timeframe(claim: Claim) -> None:
    """What the API let through before: PostgreSQL keeps a year Python cannot read."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE claimcheck_claim SET timeframe_end = %s::timestamptz WHERE id = %s",
            [FAR_END, claim.pk],
        )


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="only PostgreSQL stores timestamps after the year 9999",
)


@postgres_only
def test_one_unreadable_row_breaks_no_page_and_repair_clears_it(
    api: Client, editor_client: Client
) -> None:
    bad: Claim = ClaimFactory.create(text="The tunnel closed for repairs")
    good: Claim = ClaimFactory.create(text="The bridge opened to traffic")
    _store_far_timeframe(bad)
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123")
    admin_client = Client()
    admin_client.force_login(admin)

    for client, url in [
        (editor_client, "/"),
        (editor_client, f"/claims/{bad.pk}/"),
        (api, "/api/claims"),
        (api, f"/api/claims/{bad.pk}"),
        (admin_client, "/admin/claims/claim/"),
    ]:
        assert client.get(url).status_code == 200, url
    listed = {item["id"]: item for item in api.get("/api/claims").json()["items"]}
    assert listed[bad.pk]["timeframe_end"] is None
    assert good.pk in listed

    out = StringIO()
    call_command("repair_dates", "--dry-run", stdout=out)
    assert f"claims.Claim.timeframe_end: would clear 1 row(s) ({bad.pk})" in out.getvalue()
    with connection.cursor() as cursor:
        cursor.execute("SELECT timeframe_end IS NULL FROM claimcheck_claim WHERE id = %s", [bad.pk])
        assert cursor.fetchone() == (False,)

    call_command("repair_dates", stdout=StringIO())
    with connection.cursor() as cursor:
        cursor.execute("SELECT timeframe_end IS NULL FROM claimcheck_claim WHERE id = %s", [bad.pk])
        assert cursor.fetchone() == (True,)
    out = StringIO()
    call_command("repair_dates", stdout=out)
    assert "No stored date is out of range." in out.getvalue()
