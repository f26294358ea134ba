from typing import Any

import pytest
from django.test import Client

from claimcheck import health

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_and_broker_up(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True


def test_healthz_is_503_when_the_broker_is_down(client: Client, monkeypatch: Any) -> None:
    class DeadBroker:
        def ping(self) -> bool:
            raise ConnectionError("refused")

    monkeypatch.setattr("django_q.brokers.get_broker", lambda *a, **k: DeadBroker())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"] == {"ok": False, "detail": "ConnectionError"}


def test_healthz_is_503_when_the_database_is_down(client: Client, monkeypatch: Any) -> None:
    monkeypatch.setattr(health, "database_ok", lambda: (False, "OperationalError"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"]["ok"] is False
