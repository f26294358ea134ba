"""Fetch, verify and store pages (verify, then read in depth).

Every URL ends as one `Page` row under its canonical URL, whatever happened: dead links, refusals,
paywalls, timeouts and binaries are recorded with why, so the same URL is not tried again before
the cache TTL runs out and the failure is visible to editors. Only denied domains are refused
outright (DeniedDomain), before any network use.

The network part (fetch, retry, reading) runs in worker threads; the database part (cache
lookups, rows, the local search index) stays in the caller's thread, inside its transaction.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime, timedelta

from django.utils import timezone

from claimcheck.config import get_config
from claimcheck.language import MIXED_CONFIDENCE, detect_language
from evidence.fetching.base import fetcher_for
from evidence.fetching.reading import FetchOutcome, fetch_outcome
from evidence.models import ContentDepth, Page, VerificationStatus
from harvester.services import index_document
from integrations.http.canonical import canonicalize_url
from registry.hosts import registrable_domain
from registry.weighing import is_denied

logger = logging.getLogger(__name__)

# Failures that say nothing about the page itself, only about this attempt to reach it.
_TRANSIENT_ERRORS = frozenset(
    {"timeout", "connect", "transfer", "firecrawl unreachable", "firecrawl rate limited"}
)


class DeniedDomain(Exception):
    """The URL belongs to a denied domain: it is never fetched and never counted."""

    def __init__(self, url: str) -> None:
        super().__init__(f"{registrable_domain(url) or url} is denied in the domain registry")
        self.url = url


def _is_fresh(page: Page, *, now: datetime) -> bool:
    ttl = get_config().fetcher.cache_ttl_hours
    return ttl > 0 and page.fetched_at >= now - timedelta(hours=ttl)


def cached_page(url: str) -> Page | None:
    """The stored page for `url` if it is still within the cache TTL."""
    page = Page.objects.filter(url=canonicalize_url(url)).first()
    if page is not None and _is_fresh(page, now=timezone.now()):
        return page
    return None


def page_store(*, url: str, outcome: FetchOutcome) -> Page:
    """Store what a fetch read as the cached page for `url` (a canonical URL), and index it.
    Every stored page goes through here, fetched over the network or read from a corpus."""
    canonical = url
    if outcome.final_url and outcome.final_url != canonical and is_denied(outcome.final_url):
        # A redirect into a denied domain: what it served is not to be counted.
        outcome = replace(
            outcome,
            verification_status=VerificationStatus.FAILED,
            content_depth=ContentDepth.SNIPPET,
            error="redirected to a denied domain",
            text="",
            html="",
            scraped_chars=0,
        )
    existing = Page.objects.filter(url=canonical).first()
    if existing is not None and _keeps_old_copy(existing, outcome):
        # A good copy outlives a passing outage: the pipeline never loses a page it has read.
        existing.metadata = {**existing.metadata, "refresh_error": outcome.error}
        existing.fetched_at = timezone.now()
        existing.save(update_fields=["metadata", "fetched_at"])
        logger.info(
            "page kept after a failed refresh", extra={"url": canonical, "error": outcome.error}
        )
        return existing
    page, _ = Page.objects.update_or_create(
        url=canonical,
        defaults={
            "final_url": outcome.final_url[:2048],
            "domain": registrable_domain(outcome.final_url or canonical)[:253],
            "http_status": outcome.http_status,
            "title": outcome.title,
            "content_type": outcome.content_type[:120],
            "text": outcome.text,
            "html": outcome.html,
            "published_at": outcome.published_at,
            "modified_at": outcome.modified_at,
            "date_source": outcome.date_source[:80],
            "language": page_language(outcome)[:12],
            "metadata": outcome.metadata,
            "fetcher": outcome.fetcher,
            "fetched_at": timezone.now(),
            "scraped_chars": outcome.scraped_chars,
            "content_depth": outcome.content_depth,
            "verification_status": outcome.verification_status,
            "error": outcome.error[:300],
        },
    )
    logger.info(
        "page stored",
        extra={
            "url": page.url,
            "http_status": page.http_status,
            "verification": page.verification_status,
            "depth": page.content_depth,
            "error": page.error,
        },
    )
    if not outcome.failed and page.text:
        _index(page)
    return page


def page_language(outcome: FetchOutcome) -> str:
    """The language the page's text is in, by the detector; what the page declares (its
    `lang` attribute, which templates often leave at their default) when the text is too short
    to tell."""
    guess = detect_language(f"{outcome.title}\n{outcome.text}")
    if guess.known and (guess.confidence >= MIXED_CONFIDENCE or not outcome.language):
        return guess.code
    return outcome.language


def corpus_page_store(*, url: str, canonical: str, outcome: FetchOutcome) -> Page | None:
    """Store a page read from a corpus (bodies already in hand) as a real fetch would. A page
    on a denied domain is only indexed: search finds it, as on the web, but the fetcher would
    refuse it, so it is never stored or read. Returns the stored page, or None when denied."""
    if is_denied(url):
        index_document(
            url=url,
            title=outcome.title,
            text=outcome.text,
            published=outcome.published_at,
            language=outcome.language,
        )
        return None
    return page_store(url=canonical, outcome=outcome)


def _keeps_old_copy(page: Page, outcome: FetchOutcome) -> bool:
    """True when `outcome` is a transient failure and `page` holds a copy worth keeping."""
    if page.verification_status == VerificationStatus.FAILED or not outcome.failed:
        return False
    status = outcome.http_status or 0
    return status >= 500 or status == 429 or outcome.error in _TRANSIENT_ERRORS


def _index(page: Page) -> None:
    index_document(
        url=page.url,
        title=page.title,
        text=page.text,
        published=page.published_at,
        language=page.language,
    )


def _canonical_or_raise(url: str) -> str:
    canonical = canonicalize_url(url)
    if is_denied(url) or is_denied(canonical):
        raise DeniedDomain(url)
    return canonical


def page_fetch(*, url: str, snippet: str = "", title_hint: str = "") -> Page:
    """The page at `url`, from the cache while fresh, fetched and stored otherwise.

    Raises DeniedDomain for a denied domain (before any network use) and ValueError for a URL
    that is not http(s). Everything that goes wrong on the network is recorded on the page.
    """
    canonical = _canonical_or_raise(url)
    page = Page.objects.filter(url=canonical).first()
    if page is not None and _is_fresh(page, now=timezone.now()):
        return page
    fetcher = fetcher_for(get_config().fetcher)
    outcome = fetch_outcome(fetcher, url, snippet=snippet, title_hint=title_hint)
    return page_store(url=canonical, outcome=outcome)


def pages_fetch(*, urls: list[str], snippets: dict[str, str] | None = None) -> dict[str, Page]:
    """`page_fetch` for many URLs at once, `fetcher.concurrency` at a time.

    Returns {url as given: Page}. Denied domains and URLs that are not http(s) are left out
    (and logged); duplicates that share a canonical URL are fetched once.
    """
    snippets = snippets or {}
    config = get_config().fetcher
    result: dict[str, Page] = {}
    todo: dict[str, str] = {}  # canonical → the first URL given for it
    now = timezone.now()
    canonical_of: dict[str, str] = {}
    for url in urls:
        try:
            canonical = _canonical_or_raise(url)
        except DeniedDomain:
            logger.info("fetch: denied domain skipped", extra={"url": url})
            continue
        except ValueError:
            logger.info("fetch: not an http(s) URL", extra={"url": url[:200]})
            continue
        canonical_of[url] = canonical
    cached = {page.url: page for page in Page.objects.filter(url__in=set(canonical_of.values()))}
    for url, canonical in canonical_of.items():
        page = cached.get(canonical)
        if page is not None and _is_fresh(page, now=now):
            result[url] = page
        else:
            todo.setdefault(canonical, url)
    if todo:
        fetcher = fetcher_for(config)
        with ThreadPoolExecutor(max_workers=config.concurrency, thread_name_prefix="fetch") as pool:
            futures = {
                canonical: pool.submit(fetch_outcome, fetcher, url, snippet=snippets.get(url, ""))
                for canonical, url in todo.items()
            }
            stored = {
                canonical: page_store(url=canonical, outcome=future.result())
                for canonical, future in futures.items()
            }
        for url, canonical in canonical_of.items():
            if url not in result and canonical in stored:
                result[url] = stored[canonical]
    return result
