"""With the task queue unreachable, a submitted claim is refused with 503 and nothing is stored
(never a 500 for a row that exists without its task)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django_q.conf import Conf

from claims.models import Claim
from tests.factories import DecidedClaimFactory

pytestmark = pytest.mark.django_db

CLAIM = {"text": "The bridge opened to traffic in May 2024"}


@pytest.fixture
def redis_unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks go to a real Redis client pointed at a port nothing listens on."""
    monkeypatch.setattr(Conf, "SYNC", False)
    monkeypatch.setattr(Conf, "ORM", None)
    monkeypatch.setattr(Conf, "BROKER_CLASS", None)
    monkeypatch.setattr(Conf, "REDIS", "redis://127.0.0.1:1/0")


def post(client: Client, body: Any) -> Any:
    return client.post("/api/claims", data=json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("body", [CLAIM, [CLAIM, {"text": "The tunnel closed in June 2024"}]])
def test_the_api_answers_503_and_stores_nothing(
    api: Client, redis_unreachable: None, body: Any
) -> None:
    response = post(api, body)
    assert response.status_code == 503
    assert response.json()["error"] == "queue unavailable"
    assert "nothing was stored" in response.json()["details"]
    assert not Claim.objects.exists()


def test_a_retry_once_the_queue_is_back_creates_the_claim(
    api: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(Conf, "SYNC", False)
        patch.setattr(Conf, "ORM", None)
        patch.setattr(Conf, "BROKER_CLASS", None)
        patch.setattr(Conf, "REDIS", "redis://127.0.0.1:1/0")
        assert post(api, CLAIM).status_code == 503
    response = post(api, CLAIM)
    assert response.status_code == 202
    assert response.json()["claims"][0]["created"] is True


def test_the_submit_form_answers_503_and_stores_nothing(
    editor_client: Client, redis_unreachable: None
) -> None:
    response = editor_client.post("/claims/new/", CLAIM)
    assert response.status_code == 503
    assert "task queue is unreachable" in response.content.decode()
    response = editor_client.post("/claims/new/batch/", {"lines": "One claim\nAnother claim"})
    assert response.status_code == 503
    assert not Claim.objects.exists()


def test_a_rerun_is_refused_and_the_claim_keeps_its_verdict(
    editor_client: Client, redis_unreachable: None
) -> None:
    claim: Claim = DecidedClaimFactory.create()
    response = editor_client.post(f"/claims/{claim.pk}/rerun/", follow=True)
    assert "task queue is unreachable" in response.content.decode()
    claim.refresh_from_db()
    assert (claim.status, claim.run_number) == ("decided", 1)
