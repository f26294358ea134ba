"""A real task through a real broker to a real `qcluster` process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

REDIS_URL = os.environ.get("CLAIMCHECK_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


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
        "DJANGO_SETTINGS_MODULE": "claimcheck.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": _database_url(),
        "REDIS_URL": REDIS_URL,
        "CLAIMCHECK_QUEUE": list_key,
        "CLAIMCHECK_TASK_TIMEOUT": "30",
        "CLAIMCHECK_TASK_RETRY": "60",
    }
    log = (tmp_path / "qcluster.log").open("w")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
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
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
        log.close()
