"""The shared call discipline: token bucket, circuit breaker with cooldown, and both applied
to a real adapter."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import respx

from claimcheck.config import ProviderConfig
from harvester.models import ProviderStatus
from harvester.providers import get_provider
from harvester.providers.base import HttpProvider
from harvester.providers.limits import CircuitBreaker
from harvester.schema import validate_schema
from integrations.ratelimit import LocalTokenBucket

SCHEMA = validate_schema({"keywords": ["inflation"]})
SEARX = "http://searx.internal:8888"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_token_bucket_allows_a_burst_then_asks_to_wait_for_the_next_token() -> None:
    clock = Clock()
    bucket = LocalTokenBucket(6, clock=clock)  # one token every 10 s, burst of one
    assert bucket.reserve(max_wait=0) == 0
    assert bucket.reserve(max_wait=0) is None
    assert bucket.reserve(max_wait=30) == pytest.approx(10)
    clock.now += 20
    assert bucket.reserve(max_wait=0) == 0


def test_the_breaker_opens_after_consecutive_failures_and_allows_one_trial_after_cooldown() -> None:
    clock = Clock()
    breaker = CircuitBreaker(2, 60, clock=clock)
    breaker.record_failure()
    assert breaker.allow() == 0
    breaker.record_failure()
    assert breaker.allow() == pytest.approx(60)
    clock.now += 61
    assert breaker.allow() == 0  # the half-open trial
    assert breaker.allow() > 0  # nobody else while the trial runs
    breaker.record_failure()
    assert breaker.allow() == pytest.approx(60)
    clock.now += 61
    assert breaker.allow() == 0
    breaker.record_success()
    assert not breaker.is_open
    assert breaker.allow() == 0


def test_a_success_resets_the_count_of_consecutive_failures() -> None:
    breaker = CircuitBreaker(2, 60, clock=Clock())
    breaker.record_failure()
    breaker.record_success()
    breaker.record_failure()
    assert breaker.allow() == 0


def searx(**settings: Any) -> HttpProvider:
    provider = get_provider("searxng", ProviderConfig(base_url=SEARX, **settings))
    assert isinstance(provider, HttpProvider)
    return provider


def test_an_open_circuit_stops_calls_to_that_provider_until_the_cooldown_ends() -> None:
    with respx.mock() as mock:
        called = mock.get(url__startswith=f"{SEARX}/search").respond(503)
        for _ in range(2):
            outcome = asyncio.run(
                searx(retries=0, breaker_failures=2).search(SCHEMA, max_results=5)
            )
            assert outcome.reason == "HTTP 503"
        outcome = asyncio.run(searx(retries=0, breaker_failures=2).search(SCHEMA, max_results=5))
    assert outcome.status == ProviderStatus.FAILED
    assert outcome.reason.startswith("circuit open")
    assert called.call_count == 2


def test_the_rate_limit_refuses_a_call_that_would_wait_past_the_timeout() -> None:
    with respx.mock() as mock:
        called = mock.get(url__startswith=f"{SEARX}/search").respond(200, json={"results": []})
        first = asyncio.run(searx(rate_per_minute=1, timeout_s=1).search(SCHEMA, max_results=5))
        second = asyncio.run(searx(rate_per_minute=1, timeout_s=1).search(SCHEMA, max_results=5))
    assert first.status == ProviderStatus.OK
    assert second.reason == "rate limit reached (token bucket)"
    assert called.call_count == 1
