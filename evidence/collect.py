"""Evidence rows for one claim from search leads: the one entry point the pipeline calls.

Each lead's page is fetched (concurrently, through evidence.fetching), chunked, reranked
against the claim and read for stance; each finding becomes an `Evidence` row carrying the
source's tier and weight, its event date and whether that falls in the claim's timeframe, and
the verification fields copied from the page. A page that could not be read falls back
to evidence from the lead's search snippet (content depth "snippet").

Safe to run twice: rows already stored for the same claim and URL (page evidence and snippet
evidence counted apart) are returned as they are, not created again, so a pipeline resumed
after a crash does not double-count a source.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time

from django.db import transaction

from claimcheck import llm
from claimcheck.config import get_config
from claimcheck.models import Claim
from evidence.chunking import chunk_text
from evidence.domains import DomainRule, lookup
from evidence.fetching import pages_fetch
from evidence.models import ContentDepth, Evidence, Method, Page, VerificationStatus
from evidence.rerank import rerank
from evidence.stance import ClaimContext, Finding, assess_page, assess_snippet
from evidence.stance.scorer import overlaps
from harvester.canonical import canonicalize_url

logger = logging.getLogger(__name__)

# How many reranked chunks of a page are read for stance.
TOP_CHUNKS = 3
_PAGE_METHODS = (Method.RERANK, Method.LLM, Method.STRUCTURED)
_READABLE = (ContentDepth.FULL, ContentDepth.PARTIAL)


@dataclass
class Lead:
    url: str
    title: str = ""
    snippet: str = ""
    published: datetime | None = None
    providers: list[str] = field(default_factory=list)


def _context(claim: Claim) -> ClaimContext:
    return ClaimContext(
        text=claim.text, timeframe_start=claim.timeframe_start, timeframe_end=claim.timeframe_end
    )


def in_window(claim: Claim, event_at: datetime | None, precision: str = "day") -> bool | None:
    """Whether the event date falls inside the claim's timeframe, by calendar day (UTC), a
    month-precise date counting when its month overlaps; None when either is missing."""
    if event_at is None or (claim.timeframe_start is None and claim.timeframe_end is None):
        return None
    start = claim.timeframe_start.astimezone(UTC).date() if claim.timeframe_start else None
    end = claim.timeframe_end.astimezone(UTC).date() if claim.timeframe_end else None
    return overlaps(event_at.astimezone(UTC).date(), precision, (start, end))


def _as_datetime(day: date | None) -> datetime | None:
    return datetime.combine(day, time(), UTC) if day is not None else None


def _canonical(url: str) -> str | None:
    try:
        return canonicalize_url(url)
    except ValueError:
        return None


def _row(
    *,
    claim: Claim,
    attempt: int,
    finding: Finding,
    url: str,
    title: str,
    rule: DomainRule,
    page: Page | None,
    published_at: datetime | None,
    depth: str,
) -> Evidence:
    event_at = _as_datetime(finding.event_at)
    if event_at is not None:
        date_source = finding.date_source
    elif page is not None and page.date_source:
        date_source = f"published:{page.date_source}"
    else:
        date_source = ""
    snippet_only = depth == ContentDepth.SNIPPET
    return Evidence(
        claim=claim,
        page=page,
        url=url[:2048],
        title=title,
        domain=(rule.registrable or (page.domain if page else ""))[:253],
        tier=rule.tier,
        weight=rule.weight,
        event_at=event_at,
        published_at=published_at,
        date_source=date_source[:80],
        source_quote=finding.quote,
        stance=finding.stance,
        stance_score=finding.score,
        method=finding.method,
        confidence=finding.confidence,
        in_window=in_window(claim, event_at, finding.event_precision),
        http_status=page.http_status if page else None,
        content_depth=depth,
        scraped_chars=page.scraped_chars if page else 0,
        # A snippet was never checked against a live page: it is not verified evidence.
        verification_status=(
            page.verification_status
            if page is not None and not (snippet_only and page.content_depth in _READABLE)
            else VerificationStatus.FAILED
        ),
        attempt=attempt,
    )


def _page_findings(claim: ClaimContext, page: Page) -> list[Finding]:
    metadata = page.metadata if isinstance(page.metadata, dict) else {}
    headings = [h for h in metadata.get("headings", []) if isinstance(h, str)]
    levels = [n for n in metadata.get("heading_levels", []) if isinstance(n, int)]
    chunks = chunk_text(
        text=page.text,
        headings=headings,
        heading_levels=levels if len(levels) == len(headings) else None,
    )
    kept = rerank(claim_text=claim.text, chunks=chunks, top_k=TOP_CHUNKS)
    return assess_page(
        claim=claim,
        page_text=page.text,
        title=page.title,
        chunks=kept,
        published_at=page.published_at,
    )


def _readable(page: Page | None) -> bool:
    return (
        page is not None
        and bool(page.text.strip())
        and page.content_depth in _READABLE
        and page.verification_status != VerificationStatus.FAILED
    )


def collect_evidence(*, claim: Claim, leads: list[Lead], attempt: int) -> list[Evidence]:
    """Evidence for `claim` from these leads, in lead order. Leads on denied domains give
    nothing; a lead whose page cannot be read gives snippet evidence when it has a snippet."""
    context = _context(claim)
    wanted: dict[str, Lead] = {}
    for lead in leads:
        canonical = _canonical(lead.url)
        if canonical is None or lookup(lead.url).denied:
            continue
        wanted.setdefault(canonical, lead)
    existing = _existing(claim, list(wanted))
    to_fetch = {url: lead for url, lead in wanted.items() if (url, "page") not in existing}
    pages = (
        pages_fetch(
            urls=[lead.url for lead in to_fetch.values()],
            snippets={lead.url: lead.snippet for lead in to_fetch.values() if lead.snippet},
        )
        if to_fetch
        else {}
    )
    readable = {
        url: pages[lead.url] for url, lead in to_fetch.items() if _readable(pages.get(lead.url))
    }
    findings = _assess_all(context, readable)

    result: list[Evidence] = []
    with transaction.atomic():
        # Serialises two runs of the same claim (on PostgreSQL; SQLite locks the whole file).
        Claim.objects.select_for_update().filter(pk=claim.pk).first()
        existing = _existing(claim, list(wanted))
        for url, lead in wanted.items():
            if (url, "page") in existing:
                result.extend(existing[(url, "page")])
                continue
            page = pages.get(lead.url)
            if page is not None and lookup(page.final_url or page.url).denied:
                continue
            rows = _rows_for_page(claim, attempt, url, lead, page, findings.get(url, []))
            if not rows:
                if (url, "snippet") in existing:
                    result.extend(existing[(url, "snippet")])
                    continue
                rows = _snippet_rows(claim, attempt, url, lead, page, context)
            result.extend(Evidence.objects.bulk_create(rows))
    return result


def _assess_all(context: ClaimContext, readable: dict[str, Page]) -> dict[str, list[Finding]]:
    """Stance for every readable page. LLM reads wait on the network, so they run side by side
    (bounded like fetching); the deterministic scorer is CPU work and runs in turn."""
    if llm.is_enabled() and len(readable) > 1:
        workers = get_config().fetcher.concurrency
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="stance") as pool:
            futures = {url: pool.submit(_page_findings, context, p) for url, p in readable.items()}
            return {url: future.result() for url, future in futures.items()}
    return {url: _page_findings(context, page) for url, page in readable.items()}


def _rows_for_page(
    claim: Claim, attempt: int, url: str, lead: Lead, page: Page | None, findings: list[Finding]
) -> list[Evidence]:
    if page is None or not findings:
        return []
    rule = lookup(page.final_url or page.url)
    return [
        _row(
            claim=claim,
            attempt=attempt,
            finding=finding,
            url=url,
            title=page.title or lead.title,
            rule=rule,
            page=page,
            published_at=page.published_at or lead.published,
            depth=page.content_depth,
        )
        for finding in findings
    ]


def _snippet_rows(
    claim: Claim,
    attempt: int,
    url: str,
    lead: Lead,
    page: Page | None,
    context: ClaimContext,
) -> list[Evidence]:
    finding = assess_snippet(
        claim=context, title=lead.title, snippet=lead.snippet, published=lead.published
    )
    if finding is None:
        return []
    return [
        _row(
            claim=claim,
            attempt=attempt,
            finding=finding,
            url=url,
            title=lead.title or (page.title if page else ""),
            rule=lookup(lead.url),
            page=page,
            published_at=lead.published or (page.published_at if page else None),
            depth=ContentDepth.SNIPPET,
        )
    ]


def _existing(claim: Claim, urls: list[str]) -> dict[tuple[str, str], list[Evidence]]:
    """Stored rows of this claim for these URLs, keyed (url, "page" | "snippet")."""
    found: dict[tuple[str, str], list[Evidence]] = {}
    for row in Evidence.objects.filter(claim=claim, url__in=urls).order_by("id"):
        kind = "snippet" if row.method == Method.SNIPPET else "page"
        if row.method in _PAGE_METHODS or kind == "snippet":
            found.setdefault((row.url, kind), []).append(row)
    return found


def snippet_evidence(*, claim: Claim, leads: list[Lead], attempt: int) -> list[Evidence]:
    """Evidence from search snippets alone (content depth "snippet", method snippet), for the
    snippet gate. Nothing is fetched. Leads on denied domains and empty snippets give nothing."""
    context = _context(claim)
    wanted: dict[str, Lead] = {}
    for lead in leads:
        canonical = _canonical(lead.url)
        if canonical is not None and lead.snippet.strip() and not lookup(lead.url).denied:
            wanted.setdefault(canonical, lead)
    result: list[Evidence] = []
    with transaction.atomic():
        Claim.objects.select_for_update().filter(pk=claim.pk).first()
        existing = _existing(claim, list(wanted))
        for url, lead in wanted.items():
            if (url, "snippet") in existing:
                result.extend(existing[(url, "snippet")])
                continue
            rows = _snippet_rows(claim, attempt, url, lead, None, context)
            result.extend(Evidence.objects.bulk_create(rows))
    return result
