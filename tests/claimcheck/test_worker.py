"""A real task through a real broker to a real `qcluster` process."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.processes import database_url, qcluster

REDIS_URL = os.environ.get("CLAIMCHECK_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _redis_up() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def _broker_class() -> Any:
    """The suite runs on the ORM broker; this broker talks to the real Redis server."""
    import redis
    from django_q.brokers.redis_broker import Redis

    class RedisBroker(Redis):
        @staticmethod
        def get_connection(list_key: str | None = None) -> Any:
            return redis.Redis.from_url(REDIS_URL)

    return RedisBroker


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_task_sent_through_redis_is_done_by_a_real_qcluster(tmp_path: Path) -> None:
    if not _redis_up():
        pytest.fail(
            f"Redis is not reachable at {REDIS_URL}; start it (see README) to run this test"
        )
    from django_q.tasks import async_task, fetch

    _RedisBroker = _broker_class()
    list_key = f"claimcheck-test-{os.getpid()}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": database_url(),
        "REDIS_URL": REDIS_URL,
        "CLAIMCHECK_QUEUE": list_key,
        "CLAIMCHECK_TASK_TIMEOUT": "30",
        "CLAIMCHECK_TASK_RETRY": "60",
    }
    with qcluster(env, tmp_path / "qcluster.log") as worker:
        broker = _RedisBroker(list_key=list_key)
        task_id = async_task("claimcheck.tasks.worker_ping", "hello", broker=broker, sync=False)
        deadline = time.monotonic() + 60
        task: Any = None
        while time.monotonic() < deadline and task is None:
            time.sleep(0.3)
            task = fetch(task_id)
            assert worker.poll() is None, (tmp_path / "qcluster.log").read_text()
        assert task is not None, (tmp_path / "qcluster.log").read_text()[-3000:]
        assert task.success
        assert task.result["token"] == "hello"
        assert task.result["pid"] != os.getpid()
