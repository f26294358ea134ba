"""What every search provider shares: the call discipline around one HTTP request.

An adapter only builds its request and parses the answer. This base adds, per provider name
and per process: a token-bucket rate limit, a circuit breaker with cooldown (both kept in
`limits`), retries with exponential backoff and jitter on 429 / 5xx / broken transfers (never
on other 4xx, bad JSON or a timeout, which would only repeat), a per-attempt timeout, cost
accounting, and the mapping of every failure to one short reason that the run records.
Adapters register themselves by name in `registry`.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import re
import time
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from claimcheck.config import ProviderConfig
from harvester.models import ProviderStatus
from harvester.providers.limits import provider_state
from harvester.schema import QuerySchema, compile_query
from integrations import http

BACKOFF_BASE_S = 0.25
BACKOFF_MAX_S = 4.0
MAX_RESPONSE_BYTES = 5_000_000
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


class NoOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")


@dataclass
class ProviderHit:
    url: str
    title: str = ""
    snippet: str = ""
    rank: int | None = None
    published: datetime | None = None
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass
class ProviderOutcome:
    provider: str
    status: ProviderStatus = ProviderStatus.OK
    query_used: str = ""
    hits: list[ProviderHit] = field(default_factory=list)
    latency_ms: int = 0
    reason: str = ""
    http_status: int | None = None
    attempts: int = 0
    cost_usd: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == ProviderStatus.OK

    def metrics(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "latency_ms": self.latency_ms,
            "count": len(self.hits),
            "error": self.reason,
            "http_status": self.http_status,
            "attempts": self.attempts,
            "cost_usd": self.cost_usd,
        }


@dataclass(frozen=True)
class ProviderRequest:
    method: str
    url: str
    params: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    json: Any = None


class ProviderFailure(Exception):
    """An answer that cannot be used. `reason` is short and safe to store and show."""

    def __init__(self, reason: str, *, retryable: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable


class ProviderConfigError(ValueError):
    """A provider section whose `options` do not fit the adapter."""


# --- helpers for adapters ----------------------------------------------------------------------

_DATE_FORMATS = (
    "%Y-%m-%dT%H:%M:%S%z",
    "%Y-%m-%dT%H:%M:%S.%f%z",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%dT%H:%M:%S.%f",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d",
    "%Y%m%dT%H%M%SZ",
    "%Y%m%d%H%M%S",
    "%b %d, %Y",
    "%B %d, %Y",
    "%d %b %Y",
    "%d %B %Y",
)


def parse_date(value: Any) -> datetime | None:
    """Any absolute date a provider gives, as an aware datetime (UTC when no zone is given).
    Relative forms ("3 days ago") and junk give None: the raw row keeps them anyway."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.endswith("Z") and "T" in text and not re.fullmatch(r"\d{8}T\d{6}Z", text):
        text = text[:-1] + "+00:00"
    parsed: datetime | None = None
    for fmt in _DATE_FORMATS:
        try:
            parsed = datetime.strptime(text, fmt)
            break
        except ValueError:
            continue
    if parsed is None:
        try:
            parsed = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    if not 1990 <= parsed.year <= 2100:
        return None
    return parsed


def json_body(response: http.Response) -> Any:
    try:
        return response.json()
    except (ValueError, http.HttpError):
        raise ProviderFailure("malformed JSON") from None


def as_list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ProviderFailure(f"unexpected response shape: {where} is not a list")
    return value


def text_of(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def json_object(response: http.Response) -> dict[str, Any]:
    data = json_body(response)
    if not isinstance(data, dict):
        raise ProviderFailure("unexpected response shape: not an object")
    return data


def hits_from(
    items: Any,
    *,
    where: str,
    url: str,
    title: str,
    snippet: str | None,
    published: Callable[[dict[str, Any]], Any],
    rank: Callable[[dict[str, Any], int], int] | None = None,
) -> list[ProviderHit]:
    """Provider rows to hits, by the provider's own field names. Rows without a URL are
    skipped (the raw snapshot keeps them); a list that is not a list fails the provider."""
    hits = []
    for index, item in enumerate(as_list(items, where), start=1):
        if not isinstance(item, dict) or not isinstance(item.get(url), str):
            continue
        hits.append(
            ProviderHit(
                url=item[url],
                title=text_of(item.get(title)),
                snippet=text_of(item.get(snippet)) if snippet else "",
                rank=rank(item, index) if rank else index,
                published=parse_date(published(item)),
                raw=item,
            )
        )
    return hits


def _backoff(attempt: int, retry_after: str | None) -> float:
    delay = min(BACKOFF_MAX_S, BACKOFF_BASE_S * (2**attempt)) + random.uniform(0, BACKOFF_BASE_S)
    if retry_after and retry_after.strip().isdigit():
        # Honour the server's wish only while it fits our cap; past that the attempt is lost.
        delay = max(delay, min(float(retry_after), BACKOFF_MAX_S))
    return delay


# --- the base ----------------------------------------------------------------------------------


class Provider:
    """One search provider: its name, config, validated options and query dialect."""

    name: ClassVar[str]
    default_base_url: ClassVar[str | None] = None
    requires_key: ClassVar[bool] = False
    options_model: ClassVar[type[BaseModel]] = NoOptions

    def __init__(self, config: ProviderConfig) -> None:
        self.config = config
        try:
            self.options: Any = self.options_model.model_validate(dict(config.options))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in item['loc'])}: {item['msg']}" for item in exc.errors()
            )
            raise ProviderConfigError(f"invalid options for {self.name}: {problems}") from exc

    @property
    def base_url(self) -> str | None:
        return (self.config.base_url or self.default_base_url or "").rstrip("/") or None

    @property
    def trusted(self) -> bool:
        # An endpoint the admin wrote into the config (a self-hosted SearxNG on a private
        # address) may sit where the SSRF guard would otherwise refuse to go.
        return self.config.base_url is not None

    @property
    def paid(self) -> bool:
        return self.config.cost_per_query_usd > 0

    def compile(self, schema: QuerySchema) -> str:
        """The query string this provider is sent (what runs record as final_queries)."""
        return compile_query(schema)

    def unavailable_reason(self) -> str | None:
        """Why this provider cannot be called at all (then it is not called)."""
        if self.requires_key and not self.config.api_key():
            return "no API key"
        if self.base_url is None:
            return "no base_url configured"
        return None

    def failed(self, outcome: ProviderOutcome, reason: str) -> ProviderOutcome:
        outcome.status = ProviderStatus.FAILED
        outcome.reason = reason
        outcome.hits = []
        return outcome


class HttpProvider(Provider):
    """A provider reached over HTTP: subclasses only build the request and parse the answer."""

    @abstractmethod
    def build_request(
        self, *, schema: QuerySchema, query: str, max_results: int, api_key: str | None
    ) -> ProviderRequest: ...

    @abstractmethod
    def parse(self, response: http.Response, *, max_results: int) -> list[ProviderHit]: ...

    async def search(self, schema: QuerySchema, *, max_results: int) -> ProviderOutcome:
        started = time.monotonic()
        outcome = ProviderOutcome(provider=self.name, query_used=self.compile(schema))
        try:
            return await self._search(schema, max_results=max_results, outcome=outcome)
        finally:
            outcome.latency_ms = int((time.monotonic() - started) * 1000)

    async def _search(
        self, schema: QuerySchema, *, max_results: int, outcome: ProviderOutcome
    ) -> ProviderOutcome:
        unavailable = self.unavailable_reason()
        if unavailable:
            return self.failed(outcome, unavailable)
        try:
            request = self.build_request(
                schema=schema,
                query=outcome.query_used,
                max_results=max_results,
                api_key=self.config.api_key(),
            )
        except ProviderFailure as exc:
            return self.failed(outcome, exc.reason)
        state = provider_state(self.name, self.config)
        cooldown_left = state.breaker.allow()
        if cooldown_left > 0:
            return self.failed(outcome, f"circuit open ({cooldown_left:.0f}s of cooldown left)")
        timeout = self.config.timeout_s
        reason = "not called"
        for attempt in range(self.config.retries + 1):
            wait = state.bucket.reserve(max_wait=timeout)
            if wait is None:
                reason = "rate limit reached (token bucket)"
                break
            if wait:
                await asyncio.sleep(wait)
            outcome.attempts += 1
            retry_after: str | None = None
            try:
                response = await http.arequest(
                    request.method,
                    request.url,
                    params=request.params or None,
                    headers=request.headers or None,
                    json=request.json,
                    timeout=timeout,
                    connect_timeout=min(timeout, 5.0),
                    max_bytes=MAX_RESPONSE_BYTES,
                    trusted=self.trusted,
                )
            except http.FetchTimeout:
                reason, retryable = f"timeout after {timeout:g}s", False
            except (http.TransferFailed, http.ConnectFailed) as exc:
                dns = isinstance(exc, http.ConnectFailed) and exc.dns
                reason, retryable = f"{exc.kind}: {exc}", not dns
            except http.HttpError as exc:
                reason, retryable = f"{exc.kind}: {exc}", False
            else:
                outcome.http_status = response.status
                if response.ok:
                    outcome.cost_usd += self.config.cost_per_query_usd
                    try:
                        hits = self.parse(response, max_results=max_results)
                    except ProviderFailure as exc:
                        reason, retryable = exc.reason, exc.retryable
                    else:
                        state.breaker.record_success()
                        outcome.hits = hits[:max_results]
                        outcome.status = ProviderStatus.OK
                        outcome.reason = ""
                        return outcome
                else:
                    reason = f"HTTP {response.status}"
                    retryable = response.status in _RETRY_STATUSES
                    retry_after = response.headers.get("retry-after")
            if not retryable or attempt == self.config.retries:
                break
            await asyncio.sleep(_backoff(attempt, retry_after))
        state.breaker.record_failure()
        return self.failed(outcome, reason)
