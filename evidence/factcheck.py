"""Published fact-checks for a claim, from Google Fact Check Tools (claims:search).

The claim is looked up once per normalized text and TTL, at no more than
`factcheck.rate_per_minute` calls. Matches become `FactCheckMatch` rows (table
`item_fact_checks`). The lookup is an extra, never a gate: when the API is off, has no key,
errors, is rate limited or finds nothing, the claim is left as it was and the pipeline goes on.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from claimcheck.config import FactCheckConfig, get_config
from claims.models import Claim, claim_hash, normalize_claim_text
from evidence.models import FactCheckCache, FactCheckMatch
from integrations import http
from integrations.ratelimit import TokenBucket, token_bucket
from registry.hosts import host_of

logger = logging.getLogger(__name__)

API_URL = "https://factchecktools.googleapis.com/v1alpha1/claims:search"
_TIMEOUT_S = 8.0
_MAX_QUERY_CHARS = 500
# Longest a caller waits for a rate-limit token before the lookup is skipped.
_MAX_WAIT_S = 2.0


_bucket_lock = threading.Lock()
_bucket: TokenBucket | None = None


def _rate_limiter(rate_per_minute: int) -> TokenBucket:
    global _bucket
    with _bucket_lock:
        if _bucket is None or _bucket.rate_per_minute != rate_per_minute:
            _bucket = token_bucket("factcheck", rate_per_minute)
        return _bucket


def _acquire(rate_per_minute: int) -> bool:
    """Take a token, waiting up to _MAX_WAIT_S for one; False when that is not enough."""
    wait = _rate_limiter(rate_per_minute).reserve(max_wait=_MAX_WAIT_S)
    if wait is None:
        return False
    if wait:
        time.sleep(wait)
    return True


def reset_rate_limiter() -> None:
    """Start from a full bucket (tests; a changed configuration)."""
    global _bucket
    with _bucket_lock:
        if _bucket is not None:
            _bucket.reset()
        _bucket = None


@dataclass(frozen=True)
class Match:
    """One published review of a claim, as the API described it."""

    publisher: str
    publisher_site: str
    rating: str
    url: str
    review_date: str
    claim_reviewed: str

    def as_json(self) -> dict[str, str]:
        return {
            "publisher": self.publisher,
            "publisher_site": self.publisher_site,
            "rating": self.rating,
            "url": self.url,
            "review_date": self.review_date,
            "claim_reviewed": self.claim_reviewed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        return cls(**{key: str(data.get(key) or "") for key in cls.__dataclass_fields__})


def parse_matches(body: Any) -> list[Match]:
    """Every review in a claims:search answer, one per URL. Malformed parts are skipped."""
    if not isinstance(body, dict):
        return []
    claims = body.get("claims")
    matches: dict[str, Match] = {}
    for item in claims if isinstance(claims, list) else []:
        if not isinstance(item, dict):
            continue
        reviews = item.get("claimReview")
        for review in reviews if isinstance(reviews, list) else []:
            if not isinstance(review, dict):
                continue
            url = str(review.get("url") or "").strip()
            if urlsplit(url).scheme not in ("http", "https") or len(url) > 2048:
                continue
            publisher = review.get("publisher")
            publisher = publisher if isinstance(publisher, dict) else {}
            site = str(publisher.get("site") or "").strip() or host_of(url)
            name = str(publisher.get("name") or "").strip() or site
            matches.setdefault(
                url,
                Match(
                    publisher=name[:200],
                    publisher_site=site[:253],
                    rating=str(review.get("textualRating") or "").strip()[:200],
                    url=url,
                    review_date=str(review.get("reviewDate") or "").strip(),
                    claim_reviewed=str(item.get("text") or review.get("title") or "").strip(),
                ),
            )
    return list(matches.values())


def _review_datetime(value: str) -> datetime | None:
    if not value:
        return None
    try:
        moment = parse_datetime(value)
        if moment is None:
            day = parse_date(value[:10])
            moment = datetime(day.year, day.month, day.day, tzinfo=UTC) if day else None
    except ValueError:
        return None
    if moment is not None and timezone.is_naive(moment):
        moment = moment.replace(tzinfo=UTC)
    return moment


def _query_text(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()[:_MAX_QUERY_CHARS]


def _cached(key: str, config: FactCheckConfig) -> list[Match] | None:
    entry = FactCheckCache.objects.filter(normalized_hash=key).first()
    if entry is None or config.cache_ttl_hours <= 0:
        return None
    if entry.cached_at < timezone.now() - timedelta(hours=config.cache_ttl_hours):
        return None
    result = entry.result if isinstance(entry.result, list) else []
    return [Match.from_json(item) for item in result if isinstance(item, dict)]


def _ask_google(text: str, *, api_key: str, config: FactCheckConfig) -> list[Match] | None:
    """The API's matches, or None when there is no usable answer (which is not cached)."""
    if not _acquire(config.rate_per_minute):
        logger.warning("factcheck: rate limit reached, lookup skipped")
        return None
    try:
        response = http.get(
            API_URL,
            params={"query": text, "key": api_key, "pageSize": config.max_results},
            headers={"Accept": "application/json"},
            timeout=_TIMEOUT_S,
            max_bytes=2_000_000,
        )
    except http.HttpError as exc:
        logger.warning("factcheck: request failed", extra={"kind": exc.kind})
        return None
    if response.status == 429:
        logger.warning("factcheck: the API is rate limiting us", extra={"status": 429})
        return None
    if not response.ok:
        logger.warning("factcheck: the API answered an error", extra={"status": response.status})
        return None
    try:
        body = response.json()
    except http.BadJSON:
        logger.warning("factcheck: the API sent invalid JSON")
        return None
    return parse_matches(body)


def factcheck_lookup(*, claim: Claim) -> list[FactCheckMatch]:
    """Published fact-checks of `claim`, stored as FactCheckMatch rows and returned.

    No call is made when fact-checking is disabled, has no key, or the claim is too short;
    an error or an empty answer returns [] and changes nothing.
    """
    config = get_config().factcheck
    if not config.enabled:
        return []
    api_key = os.environ.get(config.api_key_env, "").strip()
    if not api_key:
        logger.info("factcheck: enabled but no API key", extra={"env": config.api_key_env})
        return []
    text = _query_text(claim.text)
    if len(normalize_claim_text(text)) < config.min_claim_length:
        return []
    key = claim.normalized_hash or claim_hash(claim.text)
    matches = _cached(key, config)
    if matches is None:
        matches = _ask_google(text, api_key=api_key, config=config)
        if matches is None:
            return []
        FactCheckCache.objects.update_or_create(
            normalized_hash=key,
            defaults={
                "result": [match.as_json() for match in matches],
                "cached_at": timezone.now(),
            },
        )
        logger.info("factcheck: looked up", extra={"claim": claim.pk, "matches": len(matches)})
    return _store(claim, matches)


def _store(claim: Claim, matches: list[Match]) -> list[FactCheckMatch]:
    stored: list[FactCheckMatch] = []
    with transaction.atomic():
        for match in matches:
            row, _ = FactCheckMatch.objects.update_or_create(
                claim=claim,
                url=match.url,
                defaults={
                    "publisher": match.publisher,
                    "publisher_site": match.publisher_site,
                    "rating": match.rating,
                    "review_date": _review_datetime(match.review_date),
                    "claim_reviewed": match.claim_reviewed,
                },
            )
            stored.append(row)
    return stored
