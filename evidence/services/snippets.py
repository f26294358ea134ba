"""Snippet verification: a search snippet counts as read evidence only once its page is found
live, titled and holding the snippet's words; one that fails never counts."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from claims.models import Claim
from evidence.fetching import pages_fetch
from evidence.models import Evidence, Method, Page, VerificationStatus
from evidence.services.leads import READABLE, Lead, is_hub, words
from evidence.services.syndication import copies_mark

# The share of a snippet's words, and of its quoted sentence's, that its page must hold.
SNIPPET_FOUND_SHARE = 0.8
QUOTE_FOUND_SHARE = 0.9


def _found_share(text_words: list[str], page_words: set[str]) -> float:
    if not text_words:
        return 0.0
    return sum(1 for w in text_words if w in page_words) / len(text_words)


@dataclass(frozen=True)
class SnippetCheck:
    row_id: int
    url: str
    verified: bool
    why: str
    # Whether the page came from the page cache; None when no page could be had.
    cached: bool | None = None


def snippet_problem(row: Evidence, snippet: str, page: Page | None) -> str:
    """Why the snippet cannot count, or "" when its page is live, titled and holds its words."""
    if page is None:
        return "the page could not be fetched"
    if page.verification_status == VerificationStatus.FAILED:
        return f"the page is not readable ({page.error or 'failed'})"
    if not page.http_status or not 200 <= page.http_status < 300:
        return f"the page answered {page.http_status or 'nothing'}"
    if is_hub(page):
        return "the page is a listing, not a story"
    if page.content_depth not in READABLE:
        return "the page has no readable text to find the snippet in"
    if not page.title.strip() or page.title.strip() == page.url:
        return "the page has no title of its own"
    page_words = set(words(page.text))
    if _found_share(words(snippet or row.source_quote), page_words) < SNIPPET_FOUND_SHARE:
        return "the snippet's words are not on the page"
    if _found_share(words(row.source_quote), page_words) < QUOTE_FOUND_SHARE:
        return "the quoted sentence is not on the page"
    return ""


def snippet_verify(
    *, claim: Claim, rows: list[Evidence], leads: dict[str, Lead]
) -> list[SnippetCheck]:
    """Check snippet evidence against its pages (from the page cache while fresh): the page is
    live, has a real title and holds the snippet's words. A snippet that passes counts as read
    evidence (verification "verified"); one that fails never counts ("failed"). `leads` gives
    each row's search result by the row's (canonical) URL: the address it was found at, and
    its whole snippet."""
    todo = [row for row in rows if row.method == Method.SNIPPET]
    if not todo:
        return []
    found_at = {row.url: leads[row.url].url if row.url in leads else row.url for row in todo}
    asked = timezone.now()
    pages = pages_fetch(
        urls=list(found_at.values()),
        snippets={lead.url: lead.snippet for lead in leads.values() if lead.snippet},
    )
    checks: list[SnippetCheck] = []
    with transaction.atomic():
        for row in todo:
            page = pages.get(found_at[row.url])
            snippet = leads[row.url].snippet if row.url in leads else ""
            why = snippet_problem(row, snippet, page)
            Evidence.objects.filter(pk=row.pk).update(
                page=page,
                verification_status=(
                    VerificationStatus.VERIFIED if not why else VerificationStatus.FAILED
                ),
                http_status=page.http_status if page else None,
                scraped_chars=page.scraped_chars if page else 0,
            )
            cached = None if page is None else page.fetched_at < asked
            checks.append(
                SnippetCheck(row_id=row.pk, url=row.url, verified=not why, why=why, cached=cached)
            )
    # A snippet found on its page is read with it: it may reprint a wire story, and it may
    # now be the better copy of its statement (or, failed, the worse).
    copies_mark(claim=claim)
    return checks
