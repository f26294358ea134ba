"""In a browser: a claim no editor has confirmed offers no ClaimReview; once the editor keeps its
verdict (or overrides it), the "Copy ClaimReview" button is on the page and copies the JSON-LD
it shows, rated with the editor's outcome."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from claims.models import Claim, Outcome
from decisions.services import verdict_override
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_review_desk import sign_in
from tests.factories import DecidedClaimFactory, VerdictFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def clipboard_page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A page allowed to read and write the clipboard of its own origin."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        permissions=["clipboard-read", "clipboard-write"],
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def decided() -> Claim:
    claim = DecidedClaimFactory.create(
        text="Veltria Motors opened its battery cell plant in Karsfeld in June 2024",
        outcome=Outcome.TRUE,
        source_channel="https://social.example/@auto_watch/1",
    )
    VerdictFactory.create(claim=claim, run_number=claim.run_number, outcome=Outcome.TRUE)
    return claim


def test_the_copy_button_appears_once_the_verdict_is_kept_and_copies_the_claimreview(
    live_server: Any, clipboard_page: Any, editor: Any
) -> None:
    page = clipboard_page
    claim = decided()
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")

    copy = page.get_by_role("button", name="Copy ClaimReview")
    expect(page.locator("#verdict")).to_be_visible()
    expect(copy).to_have_count(0)
    expect(page.locator("#claimreview")).to_have_count(0)

    page.get_by_role("button", name="Keep this verdict").click()
    expect(copy).to_be_visible()
    copy.click()
    expect(page.locator("#claimreview-copied")).to_have_text("Copied.")

    copied = page.evaluate("navigator.clipboard.readText()")
    document = json.loads(copied)
    assert document["@type"] == "ClaimReview"
    assert document["claimReviewed"] == claim.text
    assert document["reviewRating"]["alternateName"] == "True"
    assert document["itemReviewed"]["firstAppearance"]["url"] == claim.source_channel
    page.locator("#claimreview-details summary").click()
    assert json.loads(page.locator("#claimreview-text").inner_text()) == document
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#claimreview").screenshot(path=str(SCREENSHOTS / "claimreview-copied.png"))


def test_an_overridden_claims_page_copies_the_editors_outcome(
    live_server: Any, clipboard_page: Any, editor: Any
) -> None:
    page = clipboard_page
    claim = decided()
    verdict_override(
        claim=claim, editor=editor, to_outcome=Outcome.FALSE, reason="The plant opened in July."
    )
    sign_in(page, live_server, editor)

    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    expect(page.locator("#claimreview-rating")).to_have_text("False")
    page.get_by_role("button", name="Copy ClaimReview").click()
    expect(page.locator("#claimreview-copied")).to_have_text("Copied.")

    copied = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert copied["reviewRating"]["alternateName"] == "False"
