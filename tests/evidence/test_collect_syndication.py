"""Reprints: evidence that repeats another publisher's story, by a wire byline or near the same
words, counts once, as the original publisher (the outside web mocked with respx)."""

from __future__ import annotations

import pytest
import respx

from claims.models import Claim
from evidence.models import ContentDepth, Evidence, Method, VerificationStatus
from evidence.services import Lead, collect_evidence, snippet_verify, syndication_mark
from tests.evidence.budget_story import (
    BUDGET_TEXT,
    HTML,
    NEWS,
    SNIPPET,
    budget_claim,
    budget_page,
    snippet_row,
)
from tests.evidence.factories import article_html
from tests.factories import EvidenceFactory, PageFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_dns")]

WIRE_TEXT = (
    "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38. The measure pays "
    "for a rail line and raises teachers' salaries, and the lower house votes next."
)
WIRE_STORY = (
    "WASHINGTON (AP) — The Senate approved the budget bill on 5 March 2024 by 60 votes to 38. "
    + BUDGET_TEXT.split(". ", 1)[1]
)


@pytest.fixture
def claim() -> Claim:
    return budget_claim()


def test_a_wire_byline_makes_a_reprint_count_as_the_wire(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(NEWS).respond(200, headers=HTML, text=article_html(text=WIRE_STORY))

    rows = collect_evidence(claim=claim, leads=[Lead(url=NEWS)], attempt=1)

    assert rows
    assert {Evidence.objects.get(pk=r.pk).syndicated_from for r in rows} == {"apnews.com"}


def test_a_snippet_found_on_a_wire_reprint_counts_as_the_wire(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(NEWS).respond(
        200, headers=HTML, text=article_html(title="Senate approves the budget", text=WIRE_STORY)
    )
    row = snippet_row(claim, NEWS)

    [check] = snippet_verify(claim=claim, rows=[row], leads={NEWS: Lead(url=NEWS, snippet=SNIPPET)})

    assert check.verified, check.why
    row.refresh_from_db()
    assert row.syndicated_from == "apnews.com"


def test_an_unverified_snippet_is_not_marked_from_a_page_it_was_not_found_on(
    web: respx.MockRouter, claim: Claim
) -> None:
    row = snippet_row(claim, NEWS)
    web.get(NEWS).respond(
        200, headers=HTML, text=article_html(title="Weather", text="(AP) Rain is forecast.")
    )

    [check] = snippet_verify(claim=claim, rows=[row], leads={NEWS: Lead(url=NEWS, snippet=SNIPPET)})

    assert not check.verified
    row.refresh_from_db()
    assert row.syndicated_from == ""


def test_a_snippet_and_the_page_it_was_found_on_are_never_each_others_reprint(
    claim: Claim,
) -> None:
    # The search gave the bare host, a public suffix itself (gov.uk), and the page answered
    # from www after a redirect: the snippet's row and the page's name two hosts.
    page = PageFactory(url="https://gov.uk/government/budget", domain="www.gov.uk", text=WIRE_TEXT)
    EvidenceFactory(
        claim=claim,
        page=page,
        domain="gov.uk",
        method=Method.SNIPPET,
        content_depth=ContentDepth.SNIPPET,
        verification_status=VerificationStatus.VERIFIED,
        source_quote=SNIPPET,
    )
    EvidenceFactory(
        claim=claim, page=page, domain="www.gov.uk", method=Method.MODEL, source_quote=SNIPPET
    )

    assert syndication_mark(claim=claim) == 0


def test_near_copies_of_one_story_on_two_outlets_are_one_source(
    web: respx.MockRouter, claim: Claim
) -> None:
    first, second = "https://herald.example/budget", "https://courier.example/budget-vote"
    web.get(first).respond(200, headers=HTML, text=budget_page("Senate passes the budget"))
    web.get(second).respond(200, headers=HTML, text=budget_page("Budget clears the Senate"))

    collect_evidence(claim=claim, leads=[Lead(url=first)], attempt=1)
    collect_evidence(claim=claim, leads=[Lead(url=second)], attempt=1)

    marks = {
        row.domain: row.syndicated_from
        for row in Evidence.objects.filter(claim=claim, method=Method.MODEL)
    }
    assert marks == {"herald.example": "", "courier.example": "herald.example"}


def test_two_outlets_telling_the_story_in_their_own_words_stay_two_sources(
    web: respx.MockRouter, claim: Claim
) -> None:
    own_words = (
        "Senators voted 60 to 38 on 5 March 2024 to approve the budget bill after a long debate. "
        "The measure pays for a rail line and raises teachers' salaries. The lower house votes "
        "next, probably before summer. Critics in the opposition warned about revenue. The "
        "minister insisted the deficit would shrink within three years."
    )
    first, second = "https://herald.example/budget", "https://courier.example/budget-vote"
    web.get(first).respond(200, headers=HTML, text=budget_page())
    web.get(second).respond(200, headers=HTML, text=article_html(text=own_words))

    collect_evidence(claim=claim, leads=[Lead(url=first), Lead(url=second)], attempt=1)

    assert not Evidence.objects.filter(claim=claim).exclude(syndicated_from="").exists()
