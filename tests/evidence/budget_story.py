"""The story the collect tests read: a Senate budget vote, its claim, the pages that report it
and a search snippet of it."""

from __future__ import annotations

from datetime import UTC, datetime

from claims.models import Claim
from evidence.models import Evidence, VerificationStatus
from evidence.services import Lead, snippet_evidence
from tests.evidence.factories import article_html
from tests.factories import ClaimFactory

HTML = {"content-type": "text/html; charset=utf-8"}
OFFICIAL = "https://agency.example.gov/press/budget"
NEWS = "https://news.example.org/budget-vote"

BUDGET_TEXT = (
    "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38, the agency said. "
    "The bill funds the new rail line, the hospital extension and a pay rise for teachers. "
    "It now goes to the lower house, which is expected to vote on it before the summer. "
    "Opposition senators said the spending plans were not matched by new revenue. "
    "The finance minister said the deficit would still fall over the next three years. "
    "Ratings agencies are expected to comment on the budget in the coming weeks."
)

SNIPPET = "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38."

HUB_HTML = (
    "<!doctype html><html><head><title>News | Agency</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/about'>About</a></nav><main><h1>News</h1>"
    "<p>Latest releases.</p><ul>"
    "<li>5 March 2024 <a href='/press/budget'>Senate approves the budget bill by 60 votes</a></li>"
    "<li>1 March 2024 <a href='/press/rail'>Rail line opens in autumn</a></li>"
    "<li>20 February 2024 <a href='/press/hospital'>Hospital extension begins</a></li>"
    "</ul></main></body></html>"
)


def budget_claim() -> Claim:
    """The claim, with a timeframe of March 2024."""
    claim: Claim = ClaimFactory.create(
        text="The Senate approved the budget bill by 60 votes in March 2024.",
        timeframe_start=datetime(2024, 3, 1, tzinfo=UTC),
        timeframe_end=datetime(2024, 3, 31, 23, 59, tzinfo=UTC),
    )
    return claim


def budget_page(title: str = "Senate approves the budget") -> str:
    return article_html(title=title, text=BUDGET_TEXT)


def snippet_row(claim: Claim, url: str, snippet: str = SNIPPET) -> Evidence:
    """Snippet evidence for `claim` from a search result at `url`, not yet checked."""
    [row] = snippet_evidence(
        claim=claim, leads=[Lead(url=url, title="Budget", snippet=snippet)], attempt=1
    )
    assert row.verification_status == VerificationStatus.UNVERIFIED
    assert not row.was_read
    return row
