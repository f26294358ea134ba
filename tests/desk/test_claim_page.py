"""The claim page an editor reads first: the verdict in words, then the weighing; an evidence table
with publication and event dates, how much of each page was read and whom it reprints; and every
quote inside the page it came from."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evidence.models import ContentDepth
from tests.factories import (
    DecidedClaimFactory,
    EvidenceFactory,
    PageFactory,
    PipelineEventFactory,
    VerdictFactory,
)

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return response.content.decode()


def _decided_claim() -> Any:
    claim: Any = DecidedClaimFactory(text="The port of Examplia reopened in May 2024")
    VerdictFactory(
        claim=claim,
        sources=[
            {
                "url": "https://gov.example/port",
                "title": "Port reopens",
                "publisher": "gov.example",
                "tier": "official",
                "stance": "support",
                "pub_date": "2024-05-03",
                "event_date": "2024-05-02",
                "weight": 1.0,
                "excerpt": "",
            },
            {
                "url": "https://wire.example/port",
                "title": "Port open",
                "publisher": "wire.example",
                "tier": "wire",
                "stance": "support",
                "pub_date": "2024-05-04",
                "event_date": "2024-05-02",
                "weight": 0.8,
                "excerpt": "",
            },
        ],
    )
    return claim


def test_the_verdict_card_leads_with_the_summary_and_folds_the_weighing(
    editor_client: Client,
) -> None:
    claim = _decided_claim()
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    summary = page.index('id="verdict-summary"')
    weighing = page.index('id="verdict-weighing"')
    assert summary < weighing < page.index('id="verdict-reason"')
    assert (
        "Two independent sources, gov.example (official) and wire.example (wire service),"
        " published between 3 and 4 May 2024, confirm the claim" in page
    )
    assert page[weighing:].startswith('id="verdict-weighing"><summary>How this was weighed')


def test_the_evidence_table_shows_both_dates_the_depth_read_and_the_original_publisher(
    editor_client: Client,
) -> None:
    claim = _decided_claim()
    EvidenceFactory(
        claim=claim,
        published_at=datetime(2024, 5, 3, tzinfo=UTC),
        event_at=datetime(2024, 5, 2, tzinfo=UTC),
        content_depth=ContentDepth.PARTIAL,
        syndicated_from="wire.example",
    )
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    table = page[page.index('<table class="evidence">') :]
    for header in ("Published", "Event date", "Text read"):
        assert f'<th scope="col">{header}</th>' in table
    assert '<td data-label="Published" class="nowrap ev-published">3 May 2024</td>' in table
    assert '<td data-label="Event date" class="nowrap ev-event">2 May 2024' in table
    assert '<td data-label="Text read" class="ev-depth">Partial' in table
    assert "syndicated from wire.example" in table


def test_a_statement_found_twice_is_one_row_and_its_copy_is_only_mentioned(
    editor_client: Client,
) -> None:
    claim = _decided_claim()
    quote = "The port of Examplia reopened to shipping on 2 May 2024, the authority said."
    kept = EvidenceFactory.create(claim=claim, url="https://gov.example/port", source_quote=quote)
    copy = EvidenceFactory.create(
        claim=claim, url="https://gov.example/print/port", source_quote=quote, duplicate_of=kept
    )

    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    assert f'id="evidence-{kept.pk}"' in page
    assert f'id="evidence-{copy.pk}"' not in page
    assert "1 more row repeats a statement above from the same source" in page


def test_a_quote_opens_in_its_page_text_highlighted_and_escaped(editor_client: Client) -> None:
    claim = _decided_claim()
    stored = PageFactory(
        url="https://gov.example/port",
        text="Harbour news <script>alert(1)</script>\nThe port reopened\n on 2 May 2024 after"
        " repairs.\nMore text.",
    )
    evidence: Any = EvidenceFactory(
        claim=claim, page=stored, source_quote="The port reopened on 2 May 2024 after repairs."
    )
    claim_page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    link = reverse("evidence_context", args=[claim.pk, evidence.pk])
    assert f'href="{link}#quote"' in claim_page

    page = text(editor_client.get(link))
    assert '<mark id="quote">The port reopened\n on 2 May 2024 after repairs.</mark>' in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page
    assert 'href="https://gov.example/port"' in page and "Open the original page" in page


def test_a_search_snippet_quote_is_found_without_its_cut_off_end(editor_client: Client) -> None:
    claim = _decided_claim()
    stored = PageFactory(text="Port open\nThe port reopened on 2 May 2024 after long repairs.")
    evidence: Any = EvidenceFactory(
        claim=claim, page=stored, source_quote="Port open The port reopened on 2 May 2024, ..."
    )
    page = text(editor_client.get(reverse("evidence_context", args=[claim.pk, evidence.pk])))
    assert '<mark id="quote">Port open\nThe port reopened on 2 May 2024</mark>' in page


def test_quote_in_context_needs_an_editor_and_the_evidence_of_that_claim(
    editor_client: Client, outsider_client: Client
) -> None:
    claim = _decided_claim()
    evidence: Any = EvidenceFactory(claim=claim)
    other: Any = EvidenceFactory()
    assert (
        outsider_client.get(reverse("evidence_context", args=[claim.pk, evidence.pk])).status_code
        == 403
    )
    assert (
        editor_client.get(reverse("evidence_context", args=[claim.pk, other.pk])).status_code == 404
    )
    no_page: Any = EvidenceFactory(claim=claim, page=None)
    assert (
        editor_client.get(reverse("evidence_context", args=[claim.pk, no_page.pk])).status_code
        == 404
    )


def test_the_timeline_shows_a_query_once_and_folds_a_long_one(editor_client: Client) -> None:
    claim: Any = DecidedClaimFactory()
    long_query = "battery passport " + " OR ".join(f"site:gov{n}.example" for n in range(30))
    for sequence, (kind, payload) in enumerate(
        [
            ("query", {"run": 1, "query": "battery passport adopted"}),
            ("search", {"run": 1, "attempt": 1, "query": "battery passport adopted"}),
            ("search", {"run": 1, "attempt": 2, "query": long_query}),
        ],
        start=1,
    ):
        PipelineEventFactory(claim=claim, sequence=sequence, kind=kind, payload=payload)
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    assert page.count('<code class="q">battery passport adopted</code>') == 1
    folded = page[page.index('<details class="q-fold">') :]
    assert f"({len(long_query)} characters)" in folded[: folded.index("</summary>")]


def test_the_evidence_heading_says_how_many_the_run_found_when_it_lists_fewer(
    editor_client: Client,
) -> None:
    """The status bar counts every row the run found; the table lists one row per statement.
    Where they differ, the heading says so, so the two numbers never seem to disagree."""
    claim = _decided_claim()
    quote = "The port of Examplia reopened to shipping on 2 May 2024, the authority said."
    kept = EvidenceFactory.create(claim=claim, url="https://gov.example/port", source_quote=quote)
    EvidenceFactory.create(
        claim=claim, url="https://gov.example/print/port", source_quote=quote, duplicate_of=kept
    )
    claim.evidence_count = 2
    claim.save(update_fields=["evidence_count"])

    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    assert "· 2 evidence" in page
    assert '<span class="muted count" id="evidence-count">1</span>' in page
    assert "of the 2 the run found: the rest are copies" in page

    claim.evidence_count = 1
    claim.save(update_fields=["evidence_count"])
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    assert 'id="evidence-found"' not in page
