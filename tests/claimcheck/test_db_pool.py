"""On PostgreSQL a process holds a bounded pool of connections, however many threads use it."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection
from django.db.backends.postgresql.base import DatabaseWrapper

from claimcheck.env import database_from_url

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the pool is PostgreSQL's (psycopg_pool)"
)


def test_a_postgres_url_gets_a_bounded_pool_and_no_persistent_connections(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("CLAIMCHECK_DB_POOL_MAX", "7")
    entry = database_from_url("postgres://u:p@db:5432/cc", base_dir=tmp_path)
    assert entry["OPTIONS"]["pool"]["max_size"] == 7
    assert entry["CONN_MAX_AGE"] == 0


def test_a_pool_size_of_zero_turns_the_pool_off(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("CLAIMCHECK_DB_POOL_MAX", "0")
    entry = database_from_url("postgres://u:p@db:5432/cc", base_dir=tmp_path)
    assert "pool" not in entry["OPTIONS"]


def _busy_connections(application_name: str) -> int:
    with connection.cursor() as cursor:
        # The test runs in a transaction, and PostgreSQL keeps one activity snapshot for a
        # transaction unless told to take a fresh one.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            [application_name],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


@postgres_only
@pytest.mark.django_db
def test_twenty_threads_share_at_most_the_pool_size(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    name = f"cc-pool-test-{time.monotonic_ns()}"
    monkeypatch.setenv("CLAIMCHECK_DB_POOL_MAX", "3")
    base = connection.settings_dict
    url = f"postgres://{base['USER']}@{base['HOST']}:{base['PORT']}/{base['NAME']}"
    entry = database_from_url(f"{url}?application_name={name}", base_dir=tmp_path)
    settings_dict = {**base, **entry, "NAME": base["NAME"], "TIME_ZONE": None}
    errors: list[BaseException] = []

    def work() -> None:
        wrapper = DatabaseWrapper(settings_dict, alias=name)
        try:
            for _ in range(3):
                with wrapper.cursor() as cursor:
                    cursor.execute("SELECT pg_sleep(0.1)")
                wrapper.close()  # back to the pool, as Django does at the end of a request
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(20)]
    for thread in threads:
        thread.start()
    most = 0
    while any(thread.is_alive() for thread in threads):
        most = max(most, _busy_connections(name))
        time.sleep(0.02)
    for thread in threads:
        thread.join()
    DatabaseWrapper(settings_dict, alias=name).close_pool()  # type: ignore[attr-defined]

    assert errors == []
    assert 1 <= most <= 3
