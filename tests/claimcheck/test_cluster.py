"""A real `manage.py qcluster` killed mid-run, and one stopped by a SIGTERM to its whole process
group: every claim is decided, none runs in two places at once, and no answered search is
sent twice. (How fast is measured by bench/crash_bench.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections import defaultdict
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import redis
from django_q.signing import SignedPackage
from django_q.tasks import async_task

from bench.imitation_search import ImitationSearch, imitation_search
from claimcheck.queue import ORM, Redis
from claims.models import Claim, ClaimStatus
from decisions.services import claim_submit
from harvester.models import ProviderCall
from tests.processes import database_url, qcluster, wait_until

REDIS_URL = os.environ.get("CLAIMCHECK_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
QUEUE = f"claimcheck-test-{os.getpid()}"
CLAIMS = 10


class _TestRedisBroker(Redis):
    """The suite runs on the ORM broker; this one talks to the real Redis server."""

    @staticmethod
    def get_connection(list_key: str | None = None) -> Any:
        return redis.Redis.from_url(REDIS_URL)


def _broker(kind: str) -> Redis | ORM:
    if kind == "redis":
        try:
            redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping()
        except redis.RedisError:
            pytest.fail(f"Redis is not reachable at {REDIS_URL}; start it (see README)")
        return _TestRedisBroker(list_key=QUEUE)
    return ORM(list_key=QUEUE)


@pytest.fixture
def broker(request: pytest.FixtureRequest) -> Any:
    queue = _broker(request.param)
    queue.delete_queue()
    yield queue
    queue.delete_queue()


def _env(kind: str, imitation: ImitationSearch, tmp_path: Path, *, workers: int) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": database_url(),
        "CLAIMCHECK_QUEUE": QUEUE,
        "CLAIMCHECK_WORKERS": str(workers),
        "CLAIMCHECK_CONFIG": str(imitation.config(tmp_path / "pipeline.yaml")),
        "CLAIMCHECK_HTTP_ALLOW_LOOPBACK": "true",
        "CLAIMCHECK_LEASE_SECONDS": "6",
        # Far beyond the test's patience: only the leases can bring a lost task back in time.
        "CLAIMCHECK_TASK_TIMEOUT": "240",
        "CLAIMCHECK_TASK_RETRY": "300",
    }
    if kind == "redis":
        env["REDIS_URL"] = REDIS_URL
    else:
        env.pop("REDIS_URL", None)
    return env


def _submit(broker: Any, count: int) -> list[int]:
    ids = []
    for n in range(count):
        claim, _ = claim_submit(
            text=f"Harbour authority {n} opened the northern ferry terminal", enqueue=False
        )
        async_task("decisions.tasks.claim_run", claim.pk, broker=broker, sync=False)
        ids.append(claim.pk)
    return ids


def _statuses(ids: list[int]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for status in Claim.objects.filter(pk__in=ids).values_list("status", flat=True):
        counts[status] += 1
    return counts


def _claim_runs(logs: list[tuple[Path, datetime | None]]) -> dict[int, list[tuple[datetime, ...]]]:
    """Every take of a claim, from the clusters' logs, as (start, end). A take that a kill cut
    short ends at the kill."""
    runs: dict[int, list[tuple[datetime, ...]]] = defaultdict(list)
    for path, killed_at in logs:
        running: dict[tuple[int, int], datetime] = {}
        for line in path.read_text().splitlines():
            if not line.startswith("{"):
                continue
            entry = json.loads(line)
            key = (entry.get("pid"), entry.get("claim_id"))
            when = datetime.fromisoformat(entry["time"])
            if entry["message"] == "claim run started":
                running[key] = when
            elif entry["message"] == "claim run ended" and key in running:
                runs[key[1]].append((running.pop(key), when))
        for (_pid, claim_id), started in running.items():
            assert killed_at is not None, f"claim {claim_id} was never ended in {path.name}"
            runs[claim_id].append((started, killed_at))
    return runs


def _assert_never_twice_at_once(runs: dict[int, list[tuple[datetime, ...]]]) -> None:
    for claim_id, takes in runs.items():
        takes.sort()
        for before, after in pairwise(takes):
            assert after[0] >= before[1], f"claim {claim_id} ran twice at once: {takes}"


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("broker", ["redis", "orm"], indirect=True)
def test_every_claim_of_a_killed_cluster_is_decided_after_a_restart(
    broker: Any, tmp_path: Path
) -> None:
    kind = "redis" if isinstance(broker, Redis) else "orm"
    with imitation_search(latency_s=0.8) as imitation:
        env = _env(kind, imitation, tmp_path, workers=2)
        ids = _submit(broker, CLAIMS)
        with qcluster(env, tmp_path / "killed.log") as cluster:
            busy = wait_until(
                lambda: (
                    _statuses(ids)[ClaimStatus.RUNNING] >= 2
                    and _statuses(ids)[ClaimStatus.DECIDED] >= 1
                ),
                timeout=90,
            )
            assert busy, (tmp_path / "killed.log").read_text()[-3000:]
            os.killpg(cluster.pid, signal.SIGKILL)
            killed_at = datetime.now(UTC)
            cluster.wait(timeout=10)
        at_kill = _statuses(ids)
        # The cluster had taken more tasks than it was running: those are the ones at stake.
        assert broker.lock_size() > at_kill[ClaimStatus.RUNNING] and at_kill[ClaimStatus.QUEUED]

        with qcluster(env, tmp_path / "restarted.log"):
            done = wait_until(
                lambda: _statuses(ids)[ClaimStatus.DECIDED] == len(ids), timeout=120, every=0.5
            )
            assert done, (
                f"{_statuses(ids)} after the restart; at the kill {dict(at_kill)}\n"
                + (tmp_path / "restarted.log").read_text()[-3000:]
            )

        runs = _claim_runs(
            [(tmp_path / "killed.log", killed_at), (tmp_path / "restarted.log", None)]
        )
        assert set(runs) == set(ids)
        _assert_never_twice_at_once(runs)
        # Each search was asked once and its answer stored; only those the kill cut short (sent,
        # never stored) were asked again, on their first record: one record per search.
        calls = ProviderCall.objects.filter(claim_id__in=ids)
        lost = calls.filter(run=None).count()
        assert len(imitation.requests) <= calls.count() + at_kill[ClaimStatus.RUNNING]
        assert lost <= at_kill[ClaimStatus.RUNNING]
        assert (
            calls.exclude(run=None).count() == calls.values("claim", "attempt").distinct().count()
        )


def _queued_tasks(broker: Any) -> list[int]:
    """The claim ids of the claim tasks waiting in the broker."""
    if isinstance(broker, Redis):
        payloads = broker.connection.lrange(broker.list_key, 0, -1)
    else:
        payloads = (
            broker.get_connection().filter(key=broker.list_key).values_list("payload", flat=True)
        )
    tasks = [SignedPackage.loads(payload) for payload in payloads]
    return [task["args"][0] for task in tasks if task["func"] == "decisions.tasks.claim_run"]


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_a_sigterm_to_the_whole_group_stops_the_cluster_and_hands_its_claims_back(
    broker: Any, tmp_path: Path
) -> None:
    with imitation_search(latency_s=2.0) as imitation:
        env = _env("redis", imitation, tmp_path, workers=1)
        ids = _submit(broker, 4)
        log = tmp_path / "stopped.log"
        with qcluster(env, log) as cluster:
            assert wait_until(lambda: _statuses(ids)[ClaimStatus.RUNNING] == 1, timeout=60), (
                log.read_text()[-3000:]
            )
            os.killpg(cluster.pid, signal.SIGTERM)
            try:
                cluster.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pytest.fail("the cluster was still running 30 s after SIGTERM\n" + log.read_text())
            assert cluster.returncode == 0, log.read_text()[-3000:]
            with pytest.raises(ProcessLookupError):
                os.killpg(cluster.pid, 0)  # nothing of the cluster is left

    assert _statuses(ids)[ClaimStatus.RUNNING] == 0
    handed_back = Claim.objects.filter(
        pk__in=ids, events__message="Queued again: its worker stopped"
    )
    assert handed_back.exists()
    # Every claim not decided is waiting in the broker, none held by the stopped cluster.
    waiting = set(
        Claim.objects.filter(pk__in=ids, status=ClaimStatus.QUEUED).values_list("pk", flat=True)
    )
    assert waiting and waiting <= set(_queued_tasks(broker))
    assert broker.lock_size() == 0
