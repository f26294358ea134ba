"""The brokers' task leases: a task taken by a live cluster stays with it, one taken by a
cluster that died goes back to the queue, and an acknowledged one never comes back."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from multiprocessing.connection import Connection
from typing import Any

import pytest
import redis
from django.db import connections
from django.utils import timezone

from claimcheck.queue import ORM, Redis
from tests.processes import wait_until

REDIS_URL = os.environ.get("CLAIMCHECK_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
QUEUE = f"claimcheck-test-{os.getpid()}"


class _TestRedis(Redis):
    """The suite runs on the ORM broker; this one talks to the real Redis server."""

    @staticmethod
    def get_connection(list_key: str | None = None) -> Any:
        return redis.Redis.from_url(REDIS_URL)


@pytest.fixture(params=["redis", "orm"])
def broker(request: pytest.FixtureRequest) -> Any:
    if request.param == "redis":
        try:
            redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping()
        except redis.RedisError:
            pytest.fail(f"Redis is not reachable at {REDIS_URL}; start it (see README)")
        queue: Redis | ORM = _TestRedis(list_key=QUEUE)
    else:
        queue = ORM(list_key=QUEUE)
    queue.delete_queue()
    yield queue
    queue.delete_queue()


def _holder(broker: Any, report: Connection) -> None:
    """A cluster's pusher: takes two tasks, sees the first one done, and holds the other."""
    first = broker.dequeue()
    second = broker.dequeue()
    broker.acknowledge(first[0][0])
    report.send([first[0][1], second[0][1]])
    time.sleep(120)


def _text(payload: Any) -> str:
    return payload.decode() if isinstance(payload, bytes) else str(payload)


def _waiting(broker: Any) -> list[str]:
    """The tasks waiting to be taken, first in line first."""
    if isinstance(broker, Redis):
        return [_text(p) for p in broker.connection.lrange(broker.list_key, 0, -1)]
    rows = broker.get_connection().filter(key=broker.list_key, lock__lte=timezone.now())
    return list(rows.order_by("pk").values_list("payload", flat=True))


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_taken_task_stays_with_its_live_cluster_and_returns_when_the_cluster_dies(
    broker: Any, settings: Any
) -> None:
    settings.CLAIMCHECK_LEASE_SECONDS = 3
    for n in range(3):
        broker.enqueue(f"task-{n}")
    connections.close_all()  # the holder opens its own after the fork
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    holder = context.Process(target=_holder, args=(broker, theirs), daemon=True)
    holder.start()
    try:
        assert ours.poll(30), "the holder took nothing"
        assert [_text(p) for p in ours.recv()] == ["task-0", "task-1"]

        # Two leases later, the live holder has kept its task: nothing came back.
        time.sleep(6)
        broker.leases_recover()
        assert (broker.queue_size(), broker.lock_size()) == (1, 1)

        os.kill(holder.pid or 0, signal.SIGKILL)
        holder.join(5)
        came_back = wait_until(
            lambda: broker.leases_recover() >= 0 and broker.queue_size() == 2, timeout=10
        )
        assert came_back, (broker.queue_size(), broker.lock_size())
        # The acknowledged task is gone for good; the lost one is first in line again.
        assert _waiting(broker) == ["task-1", "task-2"]
    finally:
        if holder.is_alive():
            holder.kill()
