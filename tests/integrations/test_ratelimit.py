"""With REDIS_URL set, every worker process draws on one shared allowance per provider; the
embedded default keeps a bucket in each process."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from django.conf import settings

from integrations.ratelimit import RedisTokenBucket
from tests.claimcheck.test_worker import REDIS_URL, _redis_up


def _workers_take(name: str, *, redis_url: str, processes: int = 2) -> list[int]:
    """Start `processes` worker processes at once; each tries for five calls to provider
    `name` (six a minute: a burst of one) and says how many it was allowed."""
    code = (
        "import django; django.setup()\n"
        "from claimcheck.config import ProviderConfig\n"
        "from harvester.providers.limits import provider_state\n"
        f"state = provider_state({name!r}, ProviderConfig(rate_per_minute=6))\n"
        "print(sum(state.bucket.reserve(max_wait=0) is not None for _ in range(5)))\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "REDIS_URL": redis_url,
    }
    started = [
        subprocess.Popen(  # noqa: S603 (our own code, no outside input)
            [sys.executable, "-c", code],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for _ in range(processes)
    ]
    return [int(process.communicate(timeout=60)[0].strip().splitlines()[-1]) for process in started]


@pytest.mark.redis
def test_two_worker_processes_share_one_allowance_through_redis() -> None:
    if not _redis_up():
        pytest.fail(f"Redis is not reachable at {REDIS_URL}; start it (see README)")
    name = f"test-{os.getpid()}-{time.monotonic_ns()}"
    try:
        assert sum(_workers_take(name, redis_url=REDIS_URL)) == 1
    finally:
        RedisTokenBucket(f"claimcheck:bucket:provider:{name}", 6, url=REDIS_URL).reset()


def test_without_redis_each_process_keeps_its_own_bucket() -> None:
    name = f"test-{os.getpid()}-{time.monotonic_ns()}"
    assert _workers_take(name, redis_url="") == [1, 1]


@pytest.mark.redis
def test_the_shared_bucket_refills_at_its_rate() -> None:
    if not _redis_up():
        pytest.fail(f"Redis is not reachable at {REDIS_URL}; start it (see README)")
    bucket = RedisTokenBucket(f"claimcheck:test:{time.monotonic_ns()}", 600, url=REDIS_URL)
    try:
        taken = sum(bucket.reserve(max_wait=0) is not None for _ in range(120))
        assert 100 <= taken <= 102  # ten a second, a burst of ten seconds of it
        wait = bucket.reserve(max_wait=5)
        assert wait is not None and 0 < wait <= 0.2
        time.sleep(0.35)
        assert bucket.reserve(max_wait=0) is not None
    finally:
        bucket.reset()


def _in_worker(code: str, *, redis_url: str) -> str:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "REDIS_URL": redis_url,
    }
    done = subprocess.run(  # noqa: S603 (our own code, no outside input)
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


BREAKER = (
    "from claimcheck.config import ProviderConfig\n"
    "from harvester.providers.limits import provider_state\n"
    "state = provider_state({name!r}, ProviderConfig(breaker_failures=2, breaker_cooldown_s=60))\n"
)


@pytest.mark.redis
def test_failures_seen_by_one_worker_open_the_breaker_for_another() -> None:
    if not _redis_up():
        pytest.fail(f"Redis is not reachable at {REDIS_URL}; start it (see README)")
    name = f"test-{os.getpid()}-{time.monotonic_ns()}"
    failing = BREAKER.format(name=name) + (
        "state.breaker.record_failure(); state.breaker.record_failure(); print('done')"
    )
    asking = BREAKER.format(name=name) + "print(state.breaker.allow())"
    try:
        started = time.monotonic()
        _in_worker(failing, redis_url=REDIS_URL)
        remaining = float(_in_worker(asking, redis_url=REDIS_URL))
        # Open for the other worker: the cooldown left is 60 s less what the two workers took
        # (each starts Django afresh, a few seconds on a busy machine), never more.
        assert 60 - (time.monotonic() - started) - 0.5 <= remaining <= 60
        assert remaining > 0
    finally:
        from integrations.ratelimit import RedisCircuitBreaker

        RedisCircuitBreaker(f"claimcheck:breaker:provider:{name}", 2, 60, url=REDIS_URL).reset()


def test_without_redis_a_breaker_is_kept_in_each_process() -> None:
    name = f"test-{os.getpid()}-{time.monotonic_ns()}"
    failing = BREAKER.format(name=name) + (
        "state.breaker.record_failure(); state.breaker.record_failure(); print('done')"
    )
    _in_worker(failing, redis_url="")
    assert (
        float(_in_worker(BREAKER.format(name=name) + "print(state.breaker.allow())", redis_url=""))
        == 0
    )


@pytest.mark.redis
def test_the_shared_breaker_lets_one_trial_through_after_its_cooldown() -> None:
    if not _redis_up():
        pytest.fail(f"Redis is not reachable at {REDIS_URL}; start it (see README)")
    from integrations.ratelimit import RedisCircuitBreaker

    breaker = RedisCircuitBreaker(f"claimcheck:test:{time.monotonic_ns()}", 2, 0.5, url=REDIS_URL)
    try:
        breaker.record_failure()
        assert breaker.allow() == 0 and not breaker.is_open
        breaker.record_failure()
        assert breaker.is_open and breaker.allow() > 0
        time.sleep(0.6)
        assert breaker.allow() == 0  # the half-open trial
        assert breaker.allow() > 0  # nobody else while it runs
        breaker.record_success()
        assert not breaker.is_open and breaker.allow() == 0
    finally:
        breaker.reset()
