"""PostgreSQL restarted under a real gunicorn and a real `manage.py qcluster` while a claim
runs: meanwhile a page and the API answer 503 with Retry-After, and once the database is back
the claim in flight is moving again within one lease and ends decided, with one verdict. Twice:
with the worker reaching for the database while it is down (its search answers at once), and
with the worker's search waiting through the whole restart, so that the first it hears of the
restart is its dead connection, once the database answers again.

The database is a cluster of the test's own (bench/private_pg.py): the machine's PostgreSQL is
shared and is not the test's to restart. The test itself needs no database of Django's."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from django.conf import settings

from bench.imitation_search import imitation_search
from bench.private_pg import PrivatePostgres, private_postgres
from tests.processes import gunicorn, qcluster, wait_until

pytestmark = pytest.mark.redis

REDIS_URL = os.environ.get("CLAIMCHECK_TEST_REDIS_URL", "redis://127.0.0.1:6379/11")
QUEUE = f"claimcheck-restart-test-{os.getpid()}"
LEASE = 6
# Each search takes this long: a claim takes a few seconds (four searches), long enough to be
# caught running by the restart, short enough to be decided within a lease once it is back.
SEARCH_S = 0.6
SETUP = """
from django.contrib.auth.models import Group, User
from claimcheck.models import ApiToken
user = User.objects.create_user("restart", password="restart-test-password")
user.groups.add(Group.objects.get_or_create(name="editors")[0])
print("TOKEN", ApiToken.issue(user=user, name="restart test")[1])
"""


def _fetch(
    url: str, data: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, Any, str]:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, refused.read().decode()


class Claims:
    """Reads of the claim's rows straight from the private database, on a fresh connection
    each time (the server restarts under it)."""

    def __init__(self, url: str, claim_id: int) -> None:
        self.url = url
        self.claim_id = claim_id

    def _rows(self, sql: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.url, connect_timeout=2) as conn:
            return conn.execute(sql, [self.claim_id]).fetchall()

    def state(self) -> tuple[str, datetime | None]:
        status, started = self._rows(
            "SELECT status, started_at FROM claimcheck_claim WHERE id = %s"
        )[0]
        return str(status), started

    def verdicts(self) -> int:
        return int(self._rows("SELECT count(*) FROM decisions_verdict WHERE claim_id = %s")[0][0])

    def verdict_events(self) -> int:
        sql = (
            "SELECT count(*) FROM claimcheck_pipelineevent WHERE claim_id = %s AND kind = 'verdict'"
        )
        return int(self._rows(sql)[0][0])

    def timeline(self) -> str:
        rows = self._rows(
            "SELECT created_at, kind, message FROM claimcheck_pipelineevent"
            " WHERE claim_id = %s ORDER BY sequence"
        )
        return "\n".join(f"{at:%H:%M:%S.%f} {kind:<9} {message}" for at, kind, message in rows)


@pytest.fixture
def database() -> Iterator[PrivatePostgres]:
    with private_postgres(max_connections=60) as pg:
        yield pg


@pytest.fixture
def broker() -> Iterator[None]:
    client = redis.Redis.from_url(REDIS_URL, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError:
        pytest.fail(f"Redis is not reachable at {REDIS_URL}; start it (see README)")
    yield
    keys = list(client.scan_iter(match=f"django_q:{QUEUE}:*"))
    if keys:
        client.delete(*keys)


def _env(pg: PrivatePostgres, config: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "database-restart-test-key",
        "DJANGO_SECURE_COOKIES": "false",
        "CLAIMCHECK_STATIC_FROM_SOURCE": "true",
        "DATABASE_URL": pg.create_database("claimcheck_restart"),
        "CLAIMCHECK_DB_POOL_TIMEOUT": "2",
        "REDIS_URL": REDIS_URL,
        "CLAIMCHECK_QUEUE": QUEUE,
        "CLAIMCHECK_WORKERS": "1",
        "CLAIMCHECK_CONFIG": str(config),
        "CLAIMCHECK_HTTP_ALLOW_LOOPBACK": "true",
        "CLAIMCHECK_LEASE_SECONDS": str(LEASE),
        # Far beyond the test's patience: only the leases can bring a lost claim back in time.
        "CLAIMCHECK_TASK_TIMEOUT": "240",
        "CLAIMCHECK_TASK_RETRY": "300",
    }


def _issue_token(env: dict[str, str]) -> str:
    for command in (["migrate", "--verbosity", "0"], ["shell", "-c", SETUP]):
        done = subprocess.run(  # noqa: S603 (our own interpreter, fixed arguments)
            [sys.executable, "manage.py", *command],
            cwd=settings.BASE_DIR,
            env={**env, "CLAIMCHECK_LOG_LEVEL": "WARNING"},
            capture_output=True,
            text=True,
            check=True,
        )
    return done.stdout.split("TOKEN ")[1].strip()


@pytest.mark.parametrize(
    "first_search_s",
    [SEARCH_S, 5.0],
    ids=["the-worker-reaches-for-it-while-it-is-down", "a-search-waits-through-the-restart"],
)
def test_a_claim_running_through_a_database_restart_is_decided_once_within_a_lease(
    first_search_s: float, database: PrivatePostgres, broker: None, tmp_path: Path
) -> None:
    pg = database
    with imitation_search(latency_s=SEARCH_S, first_latency_s=first_search_s) as imitation:
        env = _env(pg, imitation.config(tmp_path / "pipeline.yaml"))
        token = _issue_token(env)
        auth = {"Authorization": f"Bearer {token}"}
        server_log, cluster_log = tmp_path / "gunicorn.log", tmp_path / "qcluster.log"
        with gunicorn(env, server_log) as base, qcluster(env, cluster_log):
            status, _, body = _fetch(
                f"{base}/api/claims",
                data=b'{"text": "The harbour authority opened the northern ferry terminal"}',
                headers={**auth, "Content-Type": "application/json"},
            )
            assert status == 202, body
            claim = Claims(env["DATABASE_URL"], int(body.split('"ids": [')[1].split("]")[0]))

            def logs() -> str:
                return (
                    f"\ntimeline:\n{claim.timeline()}\nqcluster log:\n"
                    + cluster_log.read_text()[-4000:]
                )

            # Mid-run: running, and a search sent to the slow provider.
            assert wait_until(
                lambda: claim.state()[0] == "running" and bool(imitation.requests), timeout=90
            ), logs()
            taken_at = claim.state()[1]

            pg.stop(mode="fast")
            # While it is down: an editor's page (its session is read from the database) and
            # an API client (its token is), at once, so that it is down two seconds (the pool's
            # wait) and the slow first search outlasts the restart.
            with ThreadPoolExecutor(2) as both:
                page, api = both.map(
                    lambda headers: _fetch(f"{base}{headers.pop('path')}", headers=headers),
                    [
                        {"path": "/", "Cookie": "sessionid=abc123notasessionatall"},
                        {"path": "/api/claims", **auth},
                    ],
                )
            pg.start()
            back = time.monotonic()

            for status, headers, body in (page, api):
                assert status == 503, body[:500]
                assert headers["Retry-After"] == "5"
            assert "Back in a moment" in page[2]

            # Within one lease of the database's return the take the restart caught is over
            # (handed back and taken again, or decided), and the claim is decided.
            def moved_on() -> bool:
                status, started = claim.state()
                return status == "decided" or (status == "running" and started != taken_at)

            assert wait_until(moved_on, timeout=LEASE), (
                f"{claim.state()} {LEASE} s after the database answered again" + logs()
            )
            moved_s = time.monotonic() - back
            decided = wait_until(
                lambda: claim.state()[0] == "decided", timeout=back + LEASE - time.monotonic()
            )
            decided_s = time.monotonic() - back
            assert decided, (
                f"{claim.state()[0]}, not decided, {decided_s:.1f} s after the database answered"
                + logs()
            )
        assert claim.verdicts() == 1, logs()
        assert claim.verdict_events() == 1, logs()
        print(
            f"moving again {moved_s:.1f} s and decided {decided_s:.1f} s after the database"
            f" answered again (lease {LEASE} s)\n{claim.timeline()}"
        )
