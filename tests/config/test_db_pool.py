"""On PostgreSQL a process holds a bounded pool of connections, however many threads use it."""

from __future__ import annotations

import multiprocessing
import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.backends.postgresql.base import DatabaseWrapper

from config.env import database_from_url

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


def _sessions_in_child(results: Any) -> None:
    from django.db import connection, transaction

    try:
        seen = set()
        for _ in range(20):
            with transaction.atomic(), transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                seen.add(cursor.fetchone()[0])
        results.put(("ok", sorted(seen)))
    except Exception as exc:  # reported to the parent, which asserts
        results.put(("error", repr(exc)))


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_forked_worker_opens_its_own_sessions_and_leaves_its_parents_alone() -> None:
    """What django-q2's sentinel does when it starts a new worker: fork a process that holds a
    pool. The child must not take the parent's server sessions."""
    parent_before = _backend_pid()
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_sessions_in_child, args=(results,))
    child.start()
    parent_after = set()
    for _ in range(20):
        with transaction.atomic(), transaction.atomic():
            parent_after.add(_backend_pid())
    outcome, detail = results.get(timeout=60)
    child.join(60)

    assert outcome == "ok", detail
    assert not set(detail) & ({parent_before} | parent_after)
    assert child.exitcode == 0
