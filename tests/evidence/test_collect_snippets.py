"""snippet_verify: snippet evidence counts once its live, titled page holds its words, and never
when the page is dead, a listing or without them (the outside web mocked with respx)."""

from __future__ import annotations

import pytest
import respx

from claims.models import Claim
from evidence.models import Evidence, VerificationStatus
from evidence.services import Lead, snippet_verify
from tests.evidence.budget_story import (
    HTML,
    HUB_HTML,
    OFFICIAL,
    SNIPPET,
    budget_claim,
    budget_page,
    snippet_row,
)
from tests.evidence.factories import ARTICLE_TEXT, article_html

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fake_dns")]


@pytest.fixture
def claim() -> Claim:
    return budget_claim()


def test_a_snippet_found_on_its_live_titled_page_counts(
    web: respx.MockRouter, claim: Claim
) -> None:
    web.get(OFFICIAL).respond(200, headers=HTML, text=budget_page())
    row = snippet_row(claim, OFFICIAL)

    [check] = snippet_verify(
        claim=claim, rows=[row], leads={OFFICIAL: Lead(url=OFFICIAL, snippet=SNIPPET)}
    )

    assert check.verified, check.why
    row.refresh_from_db()
    assert row.verification_status == VerificationStatus.VERIFIED
    assert row.was_read
    assert row.http_status == 200 and row.page is not None


@pytest.mark.parametrize(
    ("status", "body", "why"),
    [
        (404, "<h1>Not found</h1>", "not readable"),
        (200, article_html(title="Senate approves the budget", text=ARTICLE_TEXT), "words"),
        (200, HUB_HTML, "listing"),
    ],
    ids=["dead", "words-missing", "hub"],
)
def test_a_snippet_not_found_on_a_live_page_never_counts(
    web: respx.MockRouter, claim: Claim, status: int, body: str, why: str
) -> None:
    web.get(OFFICIAL).respond(status, headers=HTML, text=body)
    row = snippet_row(claim, OFFICIAL)

    [check] = snippet_verify(
        claim=claim, rows=[row], leads={OFFICIAL: Lead(url=OFFICIAL, snippet=SNIPPET)}
    )

    assert not check.verified and why in check.why
    row.refresh_from_db()
    assert row.verification_status == VerificationStatus.FAILED
    assert not row.was_read


def test_a_snippet_behind_a_refused_address_is_never_fetched(
    web: respx.MockRouter, claim: Claim
) -> None:
    row = snippet_row(claim, OFFICIAL)
    Evidence.objects.filter(pk=row.pk).update(url="http://10.0.0.7/press/budget")
    row.refresh_from_db()

    [check] = snippet_verify(claim=claim, rows=[row], leads={})

    assert not check.verified
    assert not web.calls
