"""The claim page in a browser: the verdict in words first, dated evidence, a quote in context."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_editor_reads_the_summary_the_dates_and_a_quote_in_context(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claim = Claim.objects.get(text__startswith="Veltria Motors opened")
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")

    # A plain English claim reads as English, without an "unsure".
    language = page.locator("dl.meta div", has=page.get_by_text("Language", exact=True))
    expect(language.locator("dd")).to_have_text("English")
    # A company is an organisation, not a person.
    expect(page.locator(".entities .entity", has_text="Veltria Motors")).to_have_attribute(
        "title", "organization"
    )
    summary = page.locator("#verdict-summary")
    expect(summary).to_contain_text("veltria.example (official)")
    expect(summary).to_contain_text("confirm the claim")
    expect(summary).to_contain_text("14 Jun 2024")
    # The weights are there, one click away.
    expect(page.locator("#verdict-reason")).not_to_be_visible()
    page.get_by_text("How this was weighed").click()
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


def _quotes_fit_and_appear_once(page: Any) -> None:
    quotes = page.locator("table.evidence td.quote q")
    assert quotes.count() >= 2
    report = page.evaluate(
        """() => {
            const wrap = document.querySelector('table.evidence').closest('.table-wrap');
            const edge = wrap.getBoundingClientRect().right;
            const text = document.body.innerText;
            const table = document.querySelector('table.evidence').innerText;
            const count = (haystack, needle) => haystack.split(needle).length - 1;
            return {
                scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
                cut: [...document.querySelectorAll('table.evidence td.quote')]
                    .filter(td => td.getBoundingClientRect().right > edge + 1).length,
                // How often each quote shows outside the evidence table.
                elsewhere: [...document.querySelectorAll('table.evidence td.quote q')].map(q => {
                    const quote = q.innerText.replace(/…$/, '');
                    return count(text, quote) - count(table, quote);
                }),
            };
        }"""
    )
    assert not report["scrolls"] and report["cut"] == 0, report
    assert set(report["elsewhere"]) == {0}, report


@pytest.mark.parametrize("width", [1024, 390])
def test_each_quote_wraps_inside_its_card_and_is_shown_once(
    live_server: Any, browser: Any, editor: Any, screenshot: Any, width: int
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server, editor)
    try:
        veltria = Claim.objects.get(text__startswith="Veltria Motors opened")
        page.goto(f"{live_server.url}/claims/{veltria.pk}/")
        _quotes_fit_and_appear_once(page)
        # The verdict card names each counted source and leads to its row, where its quote is.
        bullet = page.locator("#verdict-evidence a.bullet-link").first
        target = bullet.get_attribute("href")
        assert target and target.startswith("#evidence-")
        bullet.click()
        expect(page.locator(f"tbody{target} td.quote q")).to_be_in_viewport()
        screenshot(f"claim-page-evidence-{width}")

        # A page read: its evidence step points at the table row instead of repeating the quote.
        nasoflu = Claim.objects.get(text__contains="Nasoflu")
        page.goto(f"{live_server.url}/claims/{nasoflu.pk}/")
        _quotes_fit_and_appear_once(page)
        step = page.locator("li.tl-evidence").first
        expect(step.locator("blockquote")).to_have_count(0)
        step.get_by_role("link", name="Its quote, in the evidence table").click()
        expect(page.locator("tbody.ev-row:target td.quote q")).to_be_in_viewport()
    finally:
        context.close()
