"""Every API error has one shape, {"error", "details"}, naming fields as the client sent them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

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
    assert "line 1 column" in body["details"]["message"]


def test_a_bad_query_parameter_names_the_parameter(api: Client) -> None:
    response = api.get("/api/claims?status=bogus")
    assert response.status_code == 422
    assert [d["field"] for d in response.json()["details"]] == ["status"]
