"""The claim page in a browser: the verdict in words first, dated evidence, a quote in context."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claimcheck.models import Claim
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_editor_reads_the_summary_the_dates_and_a_quote_in_context(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claim = Claim.objects.get(text__startswith="Veltria Motors opened")
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")

    summary = page.locator("#verdict-summary")
    expect(summary).to_contain_text("veltria.example (official)")
    expect(summary).to_contain_text("confirm the claim")
    expect(summary).to_contain_text("14 Jun 2024")
    # The weights are there, one click away.
    expect(page.locator("#verdict-reason")).not_to_be_visible()
    page.get_by_text("How it was weighed").click()
    expect(page.locator("#verdict-reason")).to_be_visible()

    table = page.locator("table.evidence")
    expect(table.get_by_role("columnheader", name="Published")).to_be_visible()
    expect(table.locator("td.ev-published").first).to_contain_text("2024")
    screenshot("claim-page-summary")
    # No empty band above a card's heading: it starts at the card's padding.
    gaps = page.evaluate(
        """() => [...document.querySelectorAll('section.card > h2:first-child')].map(h => {
            const card = h.parentElement;
            const pad = parseFloat(getComputedStyle(card).paddingTop);
            const top = card.getBoundingClientRect().top + card.clientTop;
            return Math.round(h.getBoundingClientRect().top - top - pad);
        })"""
    )
    assert gaps and max(gaps) <= 2, gaps

    page.get_by_role("link", name="Read in context").first.click()
    mark = page.locator("mark#quote")
    expect(mark).to_be_visible()
    expect(mark).to_be_in_viewport()
    expect(page.get_by_role("link", name="Open the original page")).to_have_attribute(
        "href", re.compile(r"^https://[a-z-]+\.example/")
    )
    screenshot("quote-in-context")
