"""Evidence rows for one claim from search leads: the one entry point the pipeline calls.

Each lead's page is fetched (concurrently, through evidence.fetching), chunked, reranked
against the claim and read for stance; each finding becomes an `Evidence` row carrying the
source's tier and weight, its event date and whether that falls in the claim's timeframe, and
the verification fields copied from the page. A live page too thin to read falls back to the
lead's search snippet (content depth "snippet"): a lead, which counts only once
`snippet_verify` (evidence.services.snippets) has found its words on the page. A dead, refused
or unreadable page, a listing or hub page, and a host that names no publisher (an address, an
internal name) give nothing.

Safe to run twice: rows already stored for the same claim and URL (page evidence and snippet
evidence counted apart) are returned as they are, not created again, so a pipeline resumed
after a crash does not double-count a source. A statement found twice in one run (a near-copy
of a quote from the same publisher) is stored, but kept once: see `evidence.services.duplicates`;
a reprint of another publisher's story counts as that publisher: see
`evidence.services.syndication`.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime, time

from django.db import transaction

from claimcheck.config import get_config
from claims.models import Claim, EventKind
from claims.services import event_record
from evidence.chunking import chunk_text
from evidence.entities import entity_overlap, extract_entities
from evidence.fetching import pages_fetch
from evidence.models import ContentDepth, Evidence, Method, Page, VerificationStatus
from evidence.rerank import rerank
from evidence.services.leads import PAGE_METHODS, READABLE, Lead, is_hub
from evidence.services.snippets import snippet_problem
from evidence.services.syndication import copies_mark
from evidence.stance import ClaimContext, Finding, assess_page, assess_snippet
from evidence.stance.scorer import overlaps
from integrations import llm
from integrations.http.canonical import canonicalize_url
from registry.hosts import publisher_of
from registry.weighing import DomainRule, weigh_source

# `Lead` and `is_hub` are defined in evidence.services.leads; callers import them from here too.
__all__ = ["TOP_CHUNKS", "Lead", "collect_evidence", "in_window", "is_hub", "snippet_evidence"]

logger = logging.getLogger(__name__)

# How many reranked chunks of a page are read for stance.
TOP_CHUNKS = 3


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


def _source_of(url: str) -> bool:
    """Whether `url` may be a source at all: a publisher's host, not denied."""
    return publisher_of(url) is not None and not weigh_source(url).denied


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
        domain=(publisher_of(rule.registrable) or "")[:253],
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
        entity_overlap=entity_overlap(
            extract_entities(claim.text, language=claim.language),
            extract_entities(finding.quote, language=page.language if page else ""),
        ),
        http_status=page.http_status if page else None,
        content_depth=depth,
        scraped_chars=page.scraped_chars if page else 0,
        # A snippet is a lead until `snippet_verify` finds it on its live page.
        verification_status=(
            VerificationStatus.UNVERIFIED
            if snippet_only or page is None
            else page.verification_status
        ),
        attempt=attempt,
    )


@dataclass(frozen=True)
class _Reading:
    findings: list[Finding]
    # Why the LLM's embeddings or reading failed, when this machine's reader read the page.
    llm_error: str | None = None
    # The LLM's findings clipped into range or refused on this page, recorded by the caller.
    tally: llm.ReplyTally | None = None


def _page_findings(claim: ClaimContext, page: Page) -> _Reading:
    """The page's findings, by the LLM when one is configured. A failed LLM call (no answer in
    time, a dead server, a reply that is not the JSON asked for) is not sent again, which would
    pay for it twice: this machine's reader reads the page instead."""
    metadata = page.metadata if isinstance(page.metadata, dict) else {}
    headings = [h for h in metadata.get("headings", []) if isinstance(h, str)]
    levels = [n for n in metadata.get("heading_levels", []) if isinstance(n, int)]
    chunks = chunk_text(
        text=page.text,
        headings=headings,
        heading_levels=levels if len(levels) == len(headings) else None,
    )
    tally = llm.ReplyTally("stance")
    try:
        kept = rerank(claim_text=claim.text, chunks=chunks, top_k=TOP_CHUNKS)
        return _Reading(
            assess_page(
                claim=claim,
                page_text=page.text,
                title=page.title,
                chunks=kept,
                published_at=page.published_at,
                tally=tally,
            ),
            tally=tally,
        )
    except llm.LLMError as exc:
        logger.warning("llm reading failed; read offline", extra={"kind": exc.kind})
        kept = rerank(claim_text=claim.text, chunks=chunks, top_k=TOP_CHUNKS, offline=True)
        offline = assess_page(
            claim=claim,
            page_text=page.text,
            title=page.title,
            chunks=kept,
            published_at=page.published_at,
            offline=True,
        )
        return _Reading(offline, llm_error=str(exc))


def _readable(page: Page | None) -> bool:
    return (
        page is not None
        and bool(page.text.strip())
        and page.content_depth in READABLE
        and page.verification_status != VerificationStatus.FAILED
        and not is_hub(page)
    )


def _live(page: Page | None) -> bool:
    """The page answered, with something other than a listing: its snippet may be a lead."""
    return (
        page is not None
        and page.verification_status != VerificationStatus.FAILED
        and not is_hub(page)
        and publisher_of(page.final_url or page.url) is not None
    )


def collect_evidence(*, claim: Claim, leads: list[Lead], attempt: int) -> list[Evidence]:
    """Evidence for `claim` from these leads, in lead order. Leads on denied domains give
    nothing; a lead whose page cannot be read gives snippet evidence when it has a snippet."""
    context = _context(claim)
    wanted: dict[str, Lead] = {}
    for lead in leads:
        canonical = _canonical(lead.url)
        if canonical is None or not _source_of(lead.url):
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
    readings = _assess_all(context, readable)
    repaired = llm.ReplyTally("stance")
    for reading in readings.values():
        if reading.tally is not None:
            repaired.add(reading.tally)
    # Here, not in the reading threads: this thread holds the database connection.
    llm.replies_record(repaired)
    for url, reading in readings.items():
        if reading.llm_error is not None:
            event_record(
                claim=claim,
                kind=EventKind.EVIDENCE,
                message=f"The model server could not read {url} ({reading.llm_error}): "
                "this machine's reader read it",
                payload={"attempt": attempt, "url": url, "llm_error": reading.llm_error},
                key=f"{claim.run_number}:{attempt}:llm-offline:{url}",
            )

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
            if page is not None and not _source_of(page.final_url or page.url):
                continue
            rows = _rows_for_page(claim, attempt, url, lead, page, readings.get(url))
            if not rows:
                if (url, "snippet") in existing:
                    leads_here = existing[(url, "snippet")]
                    if page is not None and not _live(page):
                        # Its page is dead, refused or a listing: the snippet can never count.
                        Evidence.objects.filter(pk__in=[r.pk for r in leads_here]).update(
                            verification_status=VerificationStatus.FAILED, page=page
                        )
                        for lead_row in leads_here:
                            lead_row.verification_status = VerificationStatus.FAILED
                    result.extend(leads_here)
                    continue
                if not _live(page):
                    continue  # dead, refused, unreadable or a hub: not even a lead
                rows = _snippet_rows(claim, attempt, url, lead, page, context)
            result.extend(Evidence.objects.bulk_create(rows))
    return _with_marks(claim, result)


def _with_marks(claim: Claim, rows: list[Evidence]) -> list[Evidence]:
    """Mark the claim's reprints and copies (`copies_mark`), and show the copy marks on the
    rows in hand."""
    copies_mark(claim=claim)
    marks = dict(
        Evidence.objects.filter(pk__in=[row.pk for row in rows]).values_list("pk", "duplicate_of")
    )
    for row in rows:
        row.duplicate_of_id = marks.get(row.pk)
    return rows


def _assess_all(context: ClaimContext, readable: dict[str, Page]) -> dict[str, _Reading]:
    """Stance for every readable page. LLM reads wait on the network, so they run side by side
    (bounded like fetching); the deterministic scorer is CPU work and runs in turn."""
    if llm.is_enabled() and len(readable) > 1:
        workers = get_config().fetcher.concurrency
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="stance") as pool:
            futures = {url: pool.submit(_page_findings, context, p) for url, p in readable.items()}
            return {url: future.result() for url, future in futures.items()}
    return {url: _page_findings(context, page) for url, page in readable.items()}


def _rows_for_page(
    claim: Claim, attempt: int, url: str, lead: Lead, page: Page | None, reading: _Reading | None
) -> list[Evidence]:
    if page is None or reading is None or not reading.findings:
        return []
    rule = weigh_source(page.final_url or page.url)
    rows = [
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
        for finding in reading.findings
    ]
    for row in rows:
        # Named by the configured model: a server may call its model something else.
        row.read_by = str(get_config().llm.model or "")[:200] if row.method == Method.LLM else ""
        row.read_offline_because = reading.llm_error or ""
    return rows


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
    row = _row(
        claim=claim,
        attempt=attempt,
        finding=finding,
        url=url,
        title=lead.title or (page.title if page else ""),
        rule=weigh_source(lead.url),
        page=page,
        published_at=lead.published or (page.published_at if page else None),
        depth=ContentDepth.SNIPPET,
    )
    if page is not None:
        # The page is in hand: check the snippet against it now.
        row.verification_status = (
            VerificationStatus.FAILED
            if snippet_problem(row, lead.snippet, page)
            else VerificationStatus.VERIFIED
        )
    return [row]


def _existing(claim: Claim, urls: list[str]) -> dict[tuple[str, str], list[Evidence]]:
    """Stored rows of this claim's current run for these URLs, keyed (url, "page" |
    "snippet"). An earlier run's rows are that run's record: a re-run reads the page again
    (from the cache) and stores its own, or it would weigh nothing it had found before."""
    found: dict[tuple[str, str], list[Evidence]] = {}
    rows = Evidence.objects.filter(claim=claim, attempt__gt=claim.attempt_offset, url__in=urls)
    for row in rows.order_by("id"):
        kind = "snippet" if row.method == Method.SNIPPET else "page"
        if row.method in PAGE_METHODS or kind == "snippet":
            found.setdefault((row.url, kind), []).append(row)
    return found


def snippet_evidence(*, claim: Claim, leads: list[Lead], attempt: int) -> list[Evidence]:
    """Evidence from search snippets alone (content depth "snippet", method snippet), for the
    snippet gate. Nothing is fetched. Leads on denied domains and empty snippets give nothing."""
    context = _context(claim)
    wanted: dict[str, Lead] = {}
    for lead in leads:
        canonical = _canonical(lead.url)
        if canonical is not None and lead.snippet.strip() and _source_of(lead.url):
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
    return _with_marks(claim, result)
