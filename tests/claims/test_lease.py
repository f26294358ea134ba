"""A running claim holds a lease; a claim whose worker died is queued again and taken by a live
worker within seconds, not after the task timeout."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from claims.lease import ClaimLeaseLost, claim_lease, lease_checkpoint
from claims.models import Claim, ClaimStatus
from claims.services import claim_start
from decisions.services import claim_submit
from decisions.tasks import claims_sweep_stale
from tests.processes import database_url, qcluster


def _running(text: str, *, silent_for: float) -> Claim:
    claim, _ = claim_submit(text=text, enqueue=False)
    Claim.objects.filter(pk=claim.pk).update(
        status=ClaimStatus.RUNNING, updated_at=timezone.now() - timedelta(seconds=silent_for)
    )
    return claim


@pytest.mark.django_db(transaction=True)
def test_a_running_claim_renews_its_lease_while_it_works(settings: Any) -> None:
    settings.CLAIMCHECK_LEASE_SECONDS = 3
    claim = _running("The bridge opened to traffic in May 2024", silent_for=3600)
    with claim_lease(claim=claim):
        time.sleep(2.5)
    claim.refresh_from_db()
    assert timezone.now() - claim.updated_at < timedelta(seconds=3)


@pytest.mark.django_db
def test_the_sweep_takes_a_claim_past_its_lease_and_leaves_a_live_one(settings: Any) -> None:
    settings.CLAIMCHECK_LEASE_SECONDS = 20
    live = _running("A claim whose worker renews its lease", silent_for=10)
    lost = _running("A claim whose worker was killed half a minute ago", silent_for=30)
    assert claims_sweep_stale() >= 1
    live.refresh_from_db()
    lost.refresh_from_db()
    assert live.status == ClaimStatus.RUNNING
    # Tasks run inline in the suite: the lost claim was queued again and run to its end.
    assert lost.status != ClaimStatus.RUNNING
    assert lost.started_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_worker_whose_lease_was_taken_over_stops_at_its_next_step(settings: Any) -> None:
    settings.CLAIMCHECK_LEASE_SECONDS = 3
    claim, _ = claim_submit(text="The tunnel reopened after the spring floods", enqueue=False)
    mine = claim_start(claim_id=claim.pk)
    with claim_lease(claim=mine):
        lease_checkpoint(claim=mine)  # still ours: carry on
        # This worker stalled past its lease, and another one took the claim over.
        Claim.objects.filter(pk=claim.pk).update(
            started_at=timezone.now() + timedelta(seconds=1), updated_at=timezone.now()
        )
        time.sleep(1.5)  # one renewal
        with pytest.raises(ClaimLeaseLost):
            lease_checkpoint(claim=mine)
    claim.refresh_from_db()
    # The other worker's take stands: still running, not failed or queued by this one.
    assert claim.status == ClaimStatus.RUNNING
    assert claim.started_at != mine.started_at


def _holder(claim_id: int, env: dict[str, str]) -> subprocess.Popen[str]:
    """A process that took the claim and holds its lease, like a worker mid-claim."""
    code = (
        "import time, django; django.setup()\n"
        "from claims.services import claim_start\n"
        "from claims.lease import claim_lease\n"
        f"claim = claim_start(claim_id={claim_id})\n"
        "with claim_lease(claim=claim):\n"
        "    print('holding', flush=True)\n"
        "    time.sleep(600)\n"
    )
    return subprocess.Popen(  # noqa: S603 (our own code, no outside input)
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


@pytest.mark.django_db(transaction=True)
def test_a_claim_whose_worker_is_killed_is_taken_again_within_a_minute(tmp_path: Path) -> None:
    claim, _ = claim_submit(text="The council adopted the battery passport rules", enqueue=False)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": database_url(),
        "CLAIMCHECK_QUEUE": f"lease-test-{os.getpid()}",
        "CLAIMCHECK_LEASE_SECONDS": "6",
        "CLAIMCHECK_WORKERS": "1",
    }
    env.pop("REDIS_URL", None)
    holder = _holder(claim.pk, env)
    with qcluster(env, tmp_path / "qcluster.log"):
        try:
            assert holder.stdout is not None
            assert holder.stdout.readline().strip() == "holding"
            claim.refresh_from_db()
            first_start = claim.started_at
            # A live worker keeps its claim, well past one lease, while the cluster sweeps.
            time.sleep(10)
            claim.refresh_from_db()
            assert (claim.status, claim.started_at) == (ClaimStatus.RUNNING, first_start)

            holder.send_signal(signal.SIGKILL)
            holder.wait(timeout=10)
            killed = time.monotonic()
            while time.monotonic() - killed < 60:
                claim.refresh_from_db()
                if claim.started_at != first_start or claim.status != ClaimStatus.RUNNING:
                    break
                time.sleep(0.5)
            recovered = time.monotonic() - killed
            assert claim.started_at != first_start or claim.status != ClaimStatus.RUNNING, (
                tmp_path / "qcluster.log"
            ).read_text()[-3000:]
            assert recovered < 60
            print(f"claim taken again {recovered:.1f} s after its worker was killed")
        finally:
            if holder.poll() is None:
                holder.kill()


@pytest.mark.django_db
def test_running_tasks_inline_starts_no_sweeper_in_the_callers_process() -> None:
    from django_q.tasks import async_task

    async_task("claimcheck.tasks.worker_ping", "hello")
    assert "claim-sweeper" not in {thread.name for thread in threading.enumerate()}


@pytest.mark.skipif(
    "postgres" not in settings.DATABASES["default"]["ENGINE"],
    reason="a server that drops a connection: PostgreSQL's pg_terminate_backend",
)
@pytest.mark.django_db(transaction=True)
def test_a_sweep_whose_connection_the_database_dropped_reconnects_at_its_next_beat() -> None:
    """As after a database restart: the server ends the sweeping thread's session. One beat
    fails on it; the next opens a new connection instead of failing on the dead one forever."""
    from django.db import connection

    from claims.lease import every

    backends: list[int] = []
    beats: list[str] = []
    stop = threading.Event()

    def beat() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backends.append(cursor.fetchone()[0])
            beats.append("ok")
        except Exception:
            beats.append("failed")
            raise

    sweeper = threading.Thread(target=every, args=(0.2, stop, beat, "test sweep"), daemon=True)
    sweeper.start()
    try:
        deadline = time.monotonic() + 10
        while not backends and time.monotonic() < deadline:
            time.sleep(0.05)
        first = backends[0]
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [first])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not [b for b in backends if b != first]:
            time.sleep(0.05)
    finally:
        stop.set()
        sweeper.join(timeout=10)
    assert "failed" in beats, beats  # the beat on the dropped session failed...
    assert any(backend != first for backend in backends), beats  # ...and a later one reconnected
    assert beats[-1] == "ok"


HARBOUR = "The harbour bill passed by 60 votes in March 2024."


@pytest.mark.skipif(
    "postgres" not in settings.DATABASES["default"]["ENGINE"],
    reason="a server that drops a connection: PostgreSQL's pg_terminate_backend",
)
@pytest.mark.django_db(transaction=True)
def test_a_run_whose_database_went_away_queues_its_claim_again_once_it_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As when PostgreSQL restarts under a worker: the run's session ends mid-claim, so its
    result cannot be saved. The claim is not failed and not left running until a sweep: it is
    queued again as soon as the database answers, and its task is sent again."""
    import psycopg
    from django.db import connection

    import decisions.tasks
    from decisions.pipeline import loop
    from decisions.tasks import claim_run

    claim, _ = claim_submit(text=HARBOUR, enqueue=False)

    def session_ends(run: Any) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        with psycopg.connect(database_url(), autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])
        Claim.objects.filter(pk=run.claim.pk).exists()  # the result it would save

    sent: list[int] = []
    monkeypatch.setattr(loop, "_loop", session_ends)
    monkeypatch.setattr(decisions.tasks, "claim_enqueue", lambda c: sent.append(c.pk))

    assert claim_run(claim.pk) == "handed back: the database went away"

    claim.refresh_from_db()
    assert claim.status == ClaimStatus.QUEUED
    assert sent == [claim.pk]
    assert list(claim.events.values_list("message", flat=True))[-1] == (
        "Queued again: the database went away while it ran"
    )
    assert not claim.events.filter(kind="error").exists()


@pytest.mark.django_db(transaction=True)
def test_a_statement_that_fails_on_a_working_connection_still_fails_the_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a connection that is gone hands a claim back: an error the database raises on a
    live connection is a bug to see, and fails the claim as before."""
    from django.db import OperationalError

    from decisions.pipeline import loop
    from decisions.tasks import claim_run

    claim, _ = claim_submit(text=HARBOUR, enqueue=False)

    def locked(run: Any) -> None:
        raise OperationalError("could not obtain lock on row in relation")

    monkeypatch.setattr(loop, "_loop", locked)
    with pytest.raises(OperationalError):
        claim_run(claim.pk)
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.FAILED


def test_a_lost_database_is_told_by_the_error_not_by_the_connection_after_it() -> None:
    """By the time the error is caught Django may have closed the dead connection and the pool
    handed out a live one: the error itself says whether the session was ended under it."""
    import sqlite3

    import psycopg
    import psycopg_pool
    from django.db import InterfaceError, OperationalError

    from claims.lease import database_lost

    def wrapped(cause: BaseException) -> OperationalError:
        error = OperationalError(str(cause))
        error.__cause__ = cause
        return error

    assert database_lost(wrapped(psycopg.errors.AdminShutdown("terminating connection")))
    assert database_lost(wrapped(psycopg.OperationalError("server closed the connection")))
    assert database_lost(wrapped(psycopg.errors.ConnectionFailure("connection failure")))
    assert database_lost(InterfaceError("connection already closed"))
    assert database_lost(wrapped(psycopg_pool.PoolTimeout("couldn't get a connection")))
    assert not database_lost(wrapped(psycopg.errors.LockNotAvailable("could not obtain lock")))
    assert not database_lost(wrapped(sqlite3.OperationalError("database is locked")))
    assert not database_lost(ValueError("not a database error"))
