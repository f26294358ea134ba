"""A quote in the page text it was read from, for the claim page's "in context" view."""

from __future__ import annotations

import re
from dataclasses import dataclass

from claims.models import Claim
from evidence.models import Evidence


@dataclass(frozen=True)
class QuoteInContext:
    """A stored page's text split around one evidence quote (found is False when the quote is not
    in the stored text any more, for example after the page was read again)."""

    evidence: Evidence
    before: str
    quote: str
    after: str
    found: bool


_ELLIPSIS_ENDS = re.compile(r"^\s*(?:\.\.\.|…)\s*|[\s,;:]*(?:\.\.\.|…)\s*$")
# A search snippet is cut short ("...") and may join a title to the text; the longest run of its
# words found on the page is the part highlighted, if it is long enough to mean something.
_MIN_WORDS = 6


def _locate(text: str, quote: str) -> tuple[int, int] | None:
    """Where `quote` sits in `text`: exactly, with the page's own white space, or its longest
    leading run of words (a snippet's cut-off ending left out)."""
    if not quote:
        return None
    start = text.find(quote)
    if start >= 0:
        return start, start + len(quote)
    words = _ELLIPSIS_ENDS.sub("", quote).split()
    for count in range(len(words), min(_MIN_WORDS, len(words)) - 1, -1):
        pattern = r"\s+".join(re.escape(word) for word in words[:count])
        match = re.search(pattern, text)
        if match:
            return match.start(), match.end()
    return None


def evidence_in_context(*, claim: Claim, evidence_id: int) -> QuoteInContext | None:
    """The evidence row of this claim with its page's stored text, or None when there is none."""
    evidence = (
        Evidence.objects.select_related("page")
        .filter(claim=claim, pk=evidence_id, page__isnull=False)
        .first()
    )
    if evidence is None or evidence.page is None:
        return None
    text = evidence.page.text or ""
    where = _locate(text, evidence.source_quote)
    if where is None:
        return QuoteInContext(evidence, text, "", "", found=False)
    start, end = where
    return QuoteInContext(evidence, text[:start], text[start:end], text[end:], found=True)
