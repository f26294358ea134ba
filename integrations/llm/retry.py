"""Asking again, as providers expect: a 429 (rate limit) or 503 (overloaded) answer is asked
again after the wait it names (`Retry-After`, or OpenAI's `retry-after-ms`), else after a
growing backoff with jitter. Those answers were refused, so nothing was paid. Every other
failure (no answer in time, a dropped connection, a bad reply) may have been paid for, and is
never sent again: litellm's and the OpenAI client's own retries are turned off (`max_retries=0`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from integrations.llm.provider import logger

T = TypeVar("T")

RETRYABLE_STATUS = frozenset({429, 503})
BACKOFF_BASE_S = 1.0
# However long a provider asks us to wait, a pipeline worker waits at most this long per retry.
MAX_WAIT_S = 30.0


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return status
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None


def _headers(exc: BaseException) -> dict[str, str]:
    found: dict[str, str] = {}
    for source in (
        getattr(getattr(exc, "response", None), "headers", None),
        getattr(exc, "litellm_response_headers", None),
    ):
        if source is None:
            continue
        try:
            items = dict(source).items()
        except (TypeError, ValueError):
            continue
        found.update({str(key).lower(): str(value) for key, value in items})
    return found


def retry_after_s(exc: BaseException) -> float | None:
    """The wait the provider named, in seconds; None when it named none we can read."""
    headers = _headers(exc)
    try:
        if "retry-after-ms" in headers:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        if "retry-after" in headers:
            value = headers["retry-after"].strip()
            if value.replace(".", "", 1).isdigit():
                return float(value)
            when = parsedate_to_datetime(value)
            return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return None


def retryable(exc: BaseException) -> bool:
    return _status(exc) in RETRYABLE_STATUS


def wait_s(exc: BaseException, attempt: int, *, cap_s: float) -> float:
    named = retry_after_s(exc)
    if named is not None:
        return min(named, cap_s, MAX_WAIT_S)
    backoff = BACKOFF_BASE_S * (2**attempt) * random.uniform(0.5, 1.0)
    return min(backoff, cap_s, MAX_WAIT_S)


def with_retries(
    call: Callable[[], T], *, retries: int, cap_s: float, context: dict[str, Any]
) -> T:
    """`call()`, asked again up to `retries` times while it fails with a 429 or 503."""
    attempt = 0
    while True:
        try:
            return call()
        except Exception as exc:
            if attempt >= retries or not retryable(exc):
                raise
            wait = wait_s(exc, attempt, cap_s=cap_s)
            logger.info(
                "llm call refused; asked again",
                extra={**context, "status": _status(exc), "wait_s": round(wait, 3)},
            )
            time.sleep(wait)
            attempt += 1
