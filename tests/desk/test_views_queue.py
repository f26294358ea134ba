"""The review desk queue: newest first with totals, filters, an HTMX results region, pages of
fifty, and an empty queue that says what to do. Permissions, escaping and query counts are in
test_views_guards.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from claims.models import Claim, Outcome
from decisions.services import verdict_override
from tests.desk.desk import HX, text
from tests.factories import ClaimFactory, DecidedClaimFactory, EvidenceFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def test_the_queue_lists_claims_newest_first_with_outcome_totals_sources_and_age(
    editor_client: Client,
) -> None:
    old: Any = DecidedClaimFactory(
        text="Older claim about the harbour",
        created_at=timezone.now() - timedelta(days=3),
        support_total=1.8,
        refute_total=0.4,
    )
    EvidenceFactory(claim=old, url="https://a.example/1")
    EvidenceFactory(claim=old, url="https://b.example/2")
    EvidenceFactory(claim=old, url="https://b.example/2")
    ClaimFactory(text="Newest claim about the bridge")

    page = text(editor_client.get(reverse("home")))

    assert page.index("Newest claim about the bridge") < page.index("Older claim about the harbour")
    row = page[page.index("Older claim about the harbour") :]
    row = row[: row.index("</tr>")]
    assert 'badge badge-true">True' in row
    assert ">1.8<" in row and ">0.4<" in row
    # Two distinct sources: the repeated URL counted once.
    assert 'data-label="Sources">2</td>' in row
    assert "3\xa0days ago" in row


def test_the_queue_marks_claims_whose_current_verdict_only_leans(editor_client: Client) -> None:
    leaning: Any = DecidedClaimFactory(text="A claim the sources only lean on")
    VerdictFactory(claim=leaning, outcome=Outcome.TRUE, reason="leaning")
    settled: Any = DecidedClaimFactory(text="A claim settled on a re-run")
    VerdictFactory(claim=settled, outcome=Outcome.TRUE, reason="leaning", run_number=1)
    VerdictFactory(claim=settled, outcome=Outcome.TRUE, reason="sufficient", run_number=2)
    Claim.objects.filter(pk=settled.pk).update(run_number=2)

    page = text(editor_client.get(reverse("home")))

    def row(claim_text: str) -> str:
        rest = page[page.index(claim_text) :]
        return rest[: rest.index("</tr>")]

    assert "provisional" in row("A claim the sources only lean on")
    assert "provisional" not in row("A claim settled on a re-run")


def test_an_overridden_row_shows_the_editors_outcome_without_claimchecks_confidence(
    editor_client: Client, editor: Any
) -> None:
    high = {"claim__fact_check_score": 0.95, "claim__fact_check_tier": "high"}
    plain: Any = VerdictFactory(outcome=Outcome.TRUE, claim__text="A plain claim", **high).claim
    changed: Any = VerdictFactory(outcome=Outcome.TRUE, claim__text="A changed one", **high).claim
    verdict_override(claim=changed, editor=editor, to_outcome=Outcome.FALSE, reason="Retracted")

    page = text(editor_client.get(reverse("home")))

    def row(claim: Any) -> str:
        rest = page[page.index(f'id="pick-{claim.pk}"') :]
        return rest[: rest.index("</tr>")]

    assert 'high</span> <span class="conf-figure">' in row(plain)
    assert "ClaimCheck proposed" not in row(plain)
    overridden = row(changed)
    assert 'badge badge-false">False</span>' in overridden and ">overridden</span>" in overridden
    assert "ClaimCheck proposed True" in overridden
    assert "tag-conf-" not in overridden and "confidence</span>" not in overridden
    # Sorted by confidence, it goes with the claims that have none.
    by_confidence = text(editor_client.get(reverse("home"), {"sort": "-confidence"}))
    assert by_confidence.index(f'id="pick-{plain.pk}"') < by_confidence.index(
        f'id="pick-{changed.pk}"'
    )


@pytest.mark.parametrize(
    ("query", "shown", "hidden"),
    [
        ("status=queued", "waiting claim", "settled claim"),
        ("outcome=false", "settled claim", "waiting claim"),
        ("overridden=yes", "changed claim", "settled claim"),
        ("overridden=no", "settled claim", "changed claim"),
        ("needs_review=on", "settled claim", "reviewed claim"),
        ("channel=%40wire", "wire claim", "settled claim"),
        ("q=harbour+settled", "settled claim", "waiting claim"),
        ("q=%22claim+about%22", "wire claim", "settled claim"),
    ],
)
def test_the_queue_filters(editor_client: Client, query: str, shown: str, hidden: str) -> None:
    ClaimFactory(text="A waiting claim")
    DecidedClaimFactory(text="A settled claim in the harbour", outcome=Outcome.FALSE)
    DecidedClaimFactory(
        text="A changed claim", outcome=Outcome.TRUE, overridden=True, reviewed_at=timezone.now()
    )
    DecidedClaimFactory(text="A reviewed claim", reviewed_at=timezone.now())
    ClaimFactory(text="A wire claim about ports", source_channel="@wire")

    page = text(editor_client.get(f"{reverse('home')}?{query}"))

    assert shown in page
    assert hidden not in page


def test_a_number_with_a_thousands_separator_is_searched_whole(editor_client: Client) -> None:
    ClaimFactory(text="The ministry hired 2,000 nurses")
    ClaimFactory(text="The council hired 2 nurses and 1,000 cooks")

    page = text(editor_client.get(reverse("home"), {"q": "2,000"}))

    assert "hired 2,000 nurses" in page
    assert "1,000 cooks" not in page


def test_the_queue_filters_by_date_range(editor_client: Client) -> None:
    now = timezone.now()
    ClaimFactory(text="From last month", created_at=now - timedelta(days=40))
    ClaimFactory(text="From this week", created_at=now - timedelta(days=2))
    start = (now - timedelta(days=7)).date().isoformat()

    page = text(editor_client.get(reverse("home"), {"created_from": start}))

    assert "From this week" in page and "From last month" not in page


def test_an_htmx_filter_request_gets_only_the_results_region(editor_client: Client) -> None:
    ClaimFactory(text="Only claim")
    response = editor_client.get(reverse("home"), {"q": "only"}, headers=HX)
    body = text(response)
    assert body.lstrip().startswith('<section id="claim-results"')
    assert "<html" not in body and "Only claim" in body


def test_the_queue_pages_fifty_claims_at_a_time(editor_client: Client) -> None:
    ClaimFactory.create_batch(55)
    first = text(editor_client.get(reverse("home")))
    second = text(editor_client.get(reverse("home"), {"page": 2}))
    assert first.count('class="claim-cell"') == 50
    assert second.count('class="claim-cell"') == 5
    assert "Page 2 of 2" in second


def test_an_empty_queue_says_what_to_do(editor_client: Client) -> None:
    page = text(editor_client.get(reverse("home")))
    assert "No claims yet." in page and "Check your first claim" in page
    filtered = text(editor_client.get(reverse("home"), {"status": "failed"}))
    assert "No claims match these filters." in filtered and "clear the filters" in filtered
