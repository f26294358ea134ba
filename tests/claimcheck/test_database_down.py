"""While the database cannot be reached, the production server answers 503 with Retry-After, in
the API's error shape or as the product's page, and /healthz says which part is down; and a
pooled connection the database dropped is not handed to a request."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests.processes import free_port, gunicorn


def _fetch(url: str, **headers: str) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read().decode()


@pytest.fixture
def server_without_its_database(tmp_path: Path) -> Iterator[str]:
    """The production server whose PostgreSQL is down: nothing listens on its port."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "DJANGO_SECRET_KEY": "database-down-test-key",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{free_port()}/claimcheck",
        "CLAIMCHECK_DB_POOL_TIMEOUT": "2",
        "CLAIMCHECK_STATIC_FROM_SOURCE": "true",
    }
    with gunicorn(env, tmp_path / "gunicorn.log", any_answer=True) as base:
        yield base


def test_pages_and_the_api_answer_503_with_retry_after_while_the_database_is_down(
    server_without_its_database: str,
) -> None:
    base = server_without_its_database
    status, headers, body = _fetch(f"{base}/healthz")
    assert status == 503
    health = json.loads(body)
    assert health["database"]["ok"] is False and health["status"] == "down"

    # A signed-in editor's page: the session is read from the database.
    status, headers, body = _fetch(f"{base}/", Cookie="sessionid=abc123notasessionatall")
    assert status == 503, body[:500]
    assert headers["Retry-After"] == "5"
    assert "Back in a moment" in body and "cannot reach its database" in body
    assert "Traceback" not in body

    # An API client: its token is looked up in the database.
    status, headers, body = _fetch(f"{base}/api/claims", Authorization="Bearer not-a-real-token")
    assert status == 503, body[:500]
    assert headers["Retry-After"] == "5"
    assert json.loads(body) == {
        "error": "service unavailable",
        "details": "the database cannot be reached; try again in a few seconds",
    }


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the pool is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_pooled_connection_the_database_dropped_is_not_handed_out_again() -> None:
    """As after a database restart: the server ends every pooled session; the next request's
    query gets a live connection, not a dead one (which would fail it with a 500)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        first = cursor.fetchone()[0]
    connection.close()  # back to the pool, as at the end of a request
    assert getattr(connection, "pool", None) is not None  # pooled, as in production
    import psycopg

    params = connection.settings_dict
    # From outside the pool, as the server itself ends sessions when it restarts.
    with psycopg.connect(
        host=params["HOST"], port=params["PORT"], user=params["USER"], dbname=params["NAME"]
    ) as outside:
        ended = outside.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [params["NAME"]],
        ).fetchone()
    assert ended is not None and ended[0] >= 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != first
