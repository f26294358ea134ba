"""Reprints: evidence whose page repeats another publisher's story (a wire byline, or near the
same words around the quote) counts once, as the original publisher."""

from __future__ import annotations

import re
from datetime import datetime

from django.db.models import Q

from claims.models import Claim
from evidence.models import Evidence, Method, Page, VerificationStatus
from evidence.services.duplicates import duplicates_mark
from evidence.services.leads import PAGE_METHODS, words

# A dateline or byline naming a wire service: "LONDON (Reuters) -", "(AP) —", "By AFP".
WIRE_BYLINES = {
    "apnews.com": re.compile(r"\((?:AP|Associated Press)\)|\bAssociated Press\b", re.I),
    "reuters.com": re.compile(r"\(Reuters\)|\bBy Reuters\b|\bReuters staff\b"),
    "afp.com": re.compile(r"\(AFP\)|\bBy AFP\b|\bAgence France-Presse\b"),
}
# Where on a page a byline stands: its first characters.
BYLINE_CHARS = 400
# Word 5-gram overlap above which two passages are copies of one story.
COPY_SIMILARITY = 0.6
# Characters of page text around a quote compared between two pages.
CONTEXT_CHARS = 400


def wire_byline(page: Page) -> str:
    """The wire service a page's dateline or byline credits, as its domain, or ""."""
    head = page.text[:BYLINE_CHARS]
    author = page.metadata.get("author", "") if isinstance(page.metadata, dict) else ""
    for domain, pattern in WIRE_BYLINES.items():
        if pattern.search(head) or (isinstance(author, str) and pattern.search(author)):
            return domain
    return ""


def _shingles(text: str, size: int = 5) -> set[tuple[str, ...]]:
    text_words = words(text)
    return {tuple(text_words[i : i + size]) for i in range(max(0, len(text_words) - size + 1))}


def _context_around(row: Evidence) -> str:
    text = row.page.text if row.page else ""
    at = text.find(row.source_quote) if row.source_quote else -1
    if at < 0:
        return row.source_quote
    return text[max(0, at - CONTEXT_CHARS) : at + len(row.source_quote) + CONTEXT_CHARS]


def _similar(a: set[tuple[str, ...]], b: set[tuple[str, ...]]) -> bool:
    if not a or not b:
        return False
    return len(a & b) / min(len(a), len(b)) >= COPY_SIMILARITY


def syndication_mark(*, claim: Claim) -> int:
    """Mark the claim's evidence that reprints another publisher's story: a page whose byline
    credits a wire service, or whose text around the quote nearly repeats an earlier
    publisher's page. Such rows count once, as the original publisher. A snippet found on its
    page is read with that page, as the page's own rows are: a snippet of a wire reprint is
    the wire's too. Returns how many rows were newly marked."""
    read = Q(method__in=PAGE_METHODS) | Q(
        method=Method.SNIPPET, verification_status=VerificationStatus.VERIFIED
    )
    rows = list(
        Evidence.objects.filter(read, claim=claim, page__isnull=False)
        .exclude(domain="")
        .select_related("page")
        .order_by("id")
    )
    marked = 0
    originals: list[tuple[Evidence, set[tuple[str, ...]]]] = []

    def when(row: Evidence) -> tuple[bool, datetime, int]:
        published = row.page.published_at if row.page else None
        return published is None, published or row.created_at, row.id

    dated = sorted(rows, key=when)
    for row in dated:
        origin = wire_byline(row.page) if row.page else ""
        shingles = _shingles(_context_around(row))
        if not origin:
            for earlier, earlier_shingles in originals:
                # A snippet and the page it was found on are one publisher's one page, even
                # when a redirect gave them two host names (gov.uk, www.gov.uk).
                other = earlier.domain != row.domain and earlier.page_id != row.page_id
                if other and _similar(shingles, earlier_shingles):
                    origin = earlier.syndicated_from or earlier.domain
                    break
        if origin == row.domain:
            origin = ""
        if origin and origin != row.syndicated_from:
            Evidence.objects.filter(pk=row.pk).update(syndicated_from=origin[:253])
            row.syndicated_from = origin
            marked += 1
        originals.append((row, shingles))
    return marked


def copies_mark(*, claim: Claim) -> None:
    """Mark the claim's rows that reprint another publisher's story, then the copies of one
    statement among them: which row is a statement's best copy depends on its publisher."""
    syndication_mark(claim=claim)
    duplicates_mark(claim=claim)
