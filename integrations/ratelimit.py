"""Token buckets for outbound calls (search providers, fact-check lookups).

One rule everywhere: `rate_per_minute` tokens a minute, bursts of up to ten seconds' worth (at
least one). With REDIS_URL set the bucket lives in Redis, so every worker process on every
machine draws on one allowance; without it (the embedded default, one machine) it lives in the
process. `reserve` takes a token and says how long to wait before using it, so concurrent
callers queue behind each other instead of all waking at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from django.conf import settings


class TokenBucket(Protocol):
    """A rate limit as a bucket of tokens: what every caller holds, whichever of the two below
    keeps the tokens."""

    rate_per_minute: int

    def configure(self, rate_per_minute: int) -> None: ...

    def reserve(self, *, max_wait: float) -> float | None: ...

    def reset(self) -> None: ...


def _capacity(per_second: float) -> float:
    return max(1.0, per_second * 10)


class LocalTokenBucket:
    """A bucket in this process."""

    def __init__(self, rate_per_minute: int, *, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.configure(rate_per_minute)
        self.tokens = self.capacity
        self.updated = clock()
        self.lock = threading.Lock()

    def configure(self, rate_per_minute: int) -> None:
        self.rate_per_minute = rate_per_minute
        self.per_second = rate_per_minute / 60.0
        self.capacity = _capacity(self.per_second)

    def reserve(self, *, max_wait: float) -> float | None:
        """Take a token: the seconds to wait before using it, or None (nothing taken) when
        that wait would exceed `max_wait`."""
        with self.lock:
            now = self.clock()
            self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.per_second)
            self.updated = now
            if self.tokens >= 1:
                self.tokens -= 1
                return 0.0
            wait = (1 - self.tokens) / self.per_second
            if wait > max_wait:
                return None
            self.tokens -= 1
            return wait

    def reset(self) -> None:
        """Full again, as when it was made."""
        with self.lock:
            self.tokens = self.capacity
            self.updated = self.clock()


# The same arithmetic as LocalTokenBucket.reserve, done atomically inside Redis on Redis's clock (so
# machines whose clocks differ still agree). Returns the wait as a string, "-1" for refused.
_RESERVE = """
local per_second = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local max_wait = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = tonumber(state[1]) or capacity
local updated = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - updated) * per_second)
local wait = 0
local result = '0'
if tokens < 1 then
  wait = (1 - tokens) / per_second
  if wait > max_wait then
    result = '-1'
  else
    tokens = tokens - 1
    result = tostring(wait)
  end
else
  tokens = tokens - 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(capacity / per_second) + 60)
return result
"""

_client_lock = threading.Lock()
_clients: dict[str, Any] = {}


def _redis(url: str) -> Any:
    import redis

    with _client_lock:
        client = _clients.get(url)
        if client is None:
            client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
            _clients[url] = client
        return client


class RedisTokenBucket:
    """A bucket shared by every process that uses the same Redis and key."""

    def __init__(self, key: str, rate_per_minute: int, *, url: str) -> None:
        self.key = key
        self.url = url
        self.configure(rate_per_minute)

    def configure(self, rate_per_minute: int) -> None:
        self.rate_per_minute = rate_per_minute
        self.per_second = rate_per_minute / 60.0
        self.capacity = _capacity(self.per_second)

    def reserve(self, *, max_wait: float) -> float | None:
        client = _redis(self.url)
        raw = client.eval(_RESERVE, 1, self.key, self.per_second, self.capacity, max_wait)
        wait = float(raw.decode() if isinstance(raw, bytes) else raw)
        return None if wait < 0 else wait

    def reset(self) -> None:
        _redis(self.url).delete(self.key)


def token_bucket(name: str, rate_per_minute: int) -> TokenBucket:
    """The bucket for `name`: shared through Redis when REDIS_URL is set, else this process's."""
    url = redis_url()
    if url:
        return RedisTokenBucket(f"claimcheck:bucket:{name}", rate_per_minute, url=url)
    return LocalTokenBucket(rate_per_minute)


# A circuit breaker kept in Redis, for the same reason as the bucket: with several workers, one
# provider's failures seen by any of them should rest it for all. Fields: failures (consecutive),
# opened_at, trial (until when the one half-open trial call holds the door; it expires so that
# a trial whose worker died does not keep the breaker shut).
_BREAKER_ALLOW = """
local cooldown = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'opened_at', 'trial')
local opened_at = tonumber(state[1])
if not opened_at then return '0' end
local left = opened_at + cooldown - now
if left > 0 then return tostring(left) end
local trial = tonumber(state[2])
if trial and trial > now then return tostring(cooldown) end
redis.call('HSET', KEYS[1], 'trial', tostring(now + cooldown))
return '0'
"""

_BREAKER_FAILURE = """
local threshold = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local trial = redis.call('HGET', KEYS[1], 'trial')
if trial or failures >= threshold then
  redis.call('HSET', KEYS[1], 'opened_at', tostring(now))
end
redis.call('HDEL', KEYS[1], 'trial')
redis.call('EXPIRE', KEYS[1], 86400)
return failures
"""


class RedisCircuitBreaker:
    """CircuitBreaker's rules (harvester.providers.limits), shared through Redis."""

    def __init__(self, key: str, threshold: int, cooldown_s: float, *, url: str) -> None:
        self.key = key
        self.url = url
        self.threshold = threshold
        self.cooldown_s = cooldown_s

    def allow(self) -> float:
        """0 when a call may go ahead, else the seconds of cooldown left."""
        raw = _redis(self.url).eval(_BREAKER_ALLOW, 1, self.key, self.cooldown_s)
        return float(raw.decode() if isinstance(raw, bytes) else raw)

    def record_success(self) -> None:
        _redis(self.url).delete(self.key)

    def record_failure(self) -> None:
        _redis(self.url).eval(_BREAKER_FAILURE, 1, self.key, self.threshold)

    @property
    def is_open(self) -> bool:
        return bool(_redis(self.url).hexists(self.key, "opened_at"))

    def reset(self) -> None:
        _redis(self.url).delete(self.key)


def redis_url() -> str:
    return str(getattr(settings, "REDIS_URL", "") or "") if settings.configured else ""
