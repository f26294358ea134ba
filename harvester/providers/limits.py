"""Per-process call limits of each search provider, keyed by its name: a token-bucket rate
limit and a circuit breaker with cooldown (both shared through Redis when REDIS_URL is set).
`HttpProvider` consults them around every call; a reloaded config applies at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from claimcheck.config import ProviderConfig
from integrations.ratelimit import (
    RedisCircuitBreaker,
    TokenBucket,
    redis_url,
    token_bucket,
)


class CircuitBreaker:
    """Opens after `threshold` consecutive failures; after `cooldown` one trial call may go
    through (half-open): success closes it, failure opens it again."""

    def __init__(
        self, threshold: int, cooldown_s: float, *, clock: Callable[[], float] = time.monotonic
    ):
        self.threshold = threshold
        self.cooldown_s = cooldown_s
        self.clock = clock
        self.failures = 0
        self.opened_at: float | None = None
        self.trial_running = False
        self.lock = threading.Lock()

    def allow(self) -> float:
        """0 when a call may go ahead, else the seconds of cooldown left."""
        with self.lock:
            if self.opened_at is None:
                return 0.0
            left = self.opened_at + self.cooldown_s - self.clock()
            if left > 0:
                return left
            if self.trial_running:
                return self.cooldown_s
            self.trial_running = True
            return 0.0

    def record_success(self) -> None:
        with self.lock:
            self.failures = 0
            self.opened_at = None
            self.trial_running = False

    def record_failure(self) -> None:
        with self.lock:
            self.failures += 1
            if self.trial_running or self.failures >= self.threshold:
                self.opened_at = self.clock()
            self.trial_running = False

    @property
    def is_open(self) -> bool:
        return self.opened_at is not None


@dataclass
class _State:
    bucket: TokenBucket
    breaker: CircuitBreaker | RedisCircuitBreaker


_states: dict[str, _State] = {}
_states_lock = threading.Lock()


def circuit_breaker(
    name: str, threshold: int, cooldown_s: float
) -> CircuitBreaker | RedisCircuitBreaker:
    """The breaker for `name`: shared through Redis when REDIS_URL is set, else this process's."""
    url = redis_url()
    if url:
        return RedisCircuitBreaker(f"claimcheck:breaker:{name}", threshold, cooldown_s, url=url)
    return CircuitBreaker(threshold, cooldown_s)


def provider_state(name: str, config: ProviderConfig) -> _State:
    with _states_lock:
        state = _states.get(name)
        if state is None:
            state = _State(
                bucket=token_bucket(f"provider:{name}", config.rate_per_minute),
                breaker=circuit_breaker(
                    f"provider:{name}", config.breaker_failures, config.breaker_cooldown_s
                ),
            )
            _states[name] = state
        else:
            # A reloaded config applies at once, without losing the counts so far.
            if state.bucket.rate_per_minute != config.rate_per_minute:
                state.bucket.configure(config.rate_per_minute)
            state.breaker.threshold = config.breaker_failures
            state.breaker.cooldown_s = config.breaker_cooldown_s
        return state


def reset_provider_state() -> None:
    """Forget every bucket and breaker (tests; a deploy restarts the process anyway)."""
    with _states_lock:
        _states.clear()
