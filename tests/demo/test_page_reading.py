"""The demo pages read as an editor meets them: a trade page restating the claim in other words
counts as support, the pages read about other events are listed apart and never counted, and a
weighed proposal stands on a counted reading of its own side."""

from __future__ import annotations

import pytest
from django.test import Client

from decisions.selectors import claim_counting
from desk.selectors.claim_page import claim_page
from tests.demo.runs import demo_run

pytestmark = pytest.mark.django_db

PORT = "https://portodesa.example/en/news/october-2024-cargo"


def test_a_trade_pages_restatement_in_other_words_reads_as_support() -> None:
    claim, verdict = demo_run(
        "The Battery Passport rules were approved by the Council of the Union in March 2025"
    )
    rows = [r for r in claim_counting(claim=claim).shown if r.domain == "energy-trade.example"]
    assert rows, [r.domain for r in claim_counting(claim=claim).shown]
    assert {r.stance for r in rows} == {"support"}, [(r.source_quote, r.stance) for r in rows]
    assert verdict.outcome == "true", verdict.proof_markdown


def test_pages_about_other_events_are_listed_apart_and_never_counted(
    editor_client: Client,
) -> None:
    claim, verdict = demo_run(
        "The Union Medicines Agency authorised the nasal flu vaccine Nasoflu in October 2024."
    )
    page = claim_page(claim=claim)
    table = {row.domain for row, *_ in page.evidence_counts}
    apart = {row.url: row for row, *_ in page.other_event_rows}
    assert "medicines-agency.example" in table
    # Which other pages the search reaches differs with the database's ordering of ties; the
    # port's October cargo figures are read on every one.
    assert PORT in apart, sorted(apart)
    assert not [url for url in apart if "nasoflu" in url or "nasal-flu" in url]
    assert all(not count.counted for _, count, *_ in page.other_event_rows)
    # The proof does not list them among the pages read.
    assert not [url for url in apart if url in verdict.proof_markdown]

    html = editor_client.get(f"/claims/{claim.pk}/").content.decode()
    assert 'id="evidence-other-events"' in html
    assert "Read, not about this claim" in html
    table_html = html.split('id="evidence-other-events"')[0]
    assert "Cargo figures for October 2024" not in table_html.split('id="evidence-head"')[1]
