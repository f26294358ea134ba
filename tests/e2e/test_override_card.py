"""An overridden verdict in a browser: the card leads with the editor's outcome, who changed it and
why; ClaimCheck's verdict and its confidence follow under "ClaimCheck proposed"; the queue shows
no confidence beside the editor's outcome. A verdict kept says who kept it."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "The regulator's register lists the plant as opening in July, not June."
CONFIDENCE = re.compile(r"(High|Medium|Low) confidence")


def _top(locator: Any) -> float:
    box = locator.bounding_box()
    assert box is not None
    return float(box["y"])


def _shoot(page: Any, locator: Any, name: str) -> None:
    """The card alone, from the top of the page (the sticky bar then covers none of it)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(
        path=str(SCREENSHOTS / f"{name}.png"), full_page=True, clip=locator.bounding_box()
    )


def test_an_override_leads_the_card_and_the_confidence_stays_with_claimchecks_proposal(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claim = Claim.objects.get(text__startswith="Veltria Motors opened")
    assert claim.outcome == "true" and claim.fact_check_tier
    tier = f"{claim.fact_check_tier.capitalize()} confidence"
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")

    # Before: ClaimCheck's verdict is the card, with its confidence.
    card = page.locator("#verdict")
    expect(card.locator("#verdict-confidence")).to_contain_text(tier)
    expect(card.get_by_role("heading", name="ClaimCheck proposed")).to_have_count(0)

    page.get_by_label("New outcome").select_option("false")
    page.get_by_label("Reason").fill(REASON)
    page.get_by_role("button", name="Override").click()

    # The editor's outcome, who and why lead the card, without any confidence.
    editor_part = card.locator("#verdict-editor")
    expect(editor_part.locator(".badge-xl")).to_have_text("False")
    expect(editor_part.locator("#verdict-by")).to_have_text(
        re.compile(rf"^{editor.username} changed it from ClaimCheck's True \S")
    )
    expect(editor_part.locator("#verdict-editor-reason")).to_have_text(REASON)
    expect(editor_part).not_to_contain_text(CONFIDENCE)
    expect(editor_part.locator("[class*='tag-conf-']")).to_have_count(0)

    # What ClaimCheck proposed follows: its outcome, its words and its confidence.
    proposed = card.locator("#verdict-proposed")
    expect(proposed.get_by_role("heading", name="ClaimCheck proposed")).to_be_visible()
    expect(proposed.locator(".verdict-outcome .badge")).to_have_text("True")
    expect(proposed.locator("#verdict-summary")).to_contain_text("confirm the claim")
    expect(proposed.locator("#verdict-confidence")).to_contain_text(tier)
    assert _top(editor_part) < _top(proposed)
    assert card.locator("[class*='tag-conf-']").count() == 1  # the proposal's, and no other
    proposed.get_by_text("How this was weighed").click()
    expect(proposed.locator(".proof")).to_contain_text("Pipeline verdict: True")
    expect(proposed.locator(".proof")).not_to_contain_text("Editor verdict")
    # The page as a whole reads the same once reloaded (not only the HTMX answer).
    page.reload()
    expect(page.locator("#verdict-editor-reason")).to_have_text(REASON)
    _shoot(page, card, "claim-override-card-only")
    screenshot("claim-override-card")

    # The queue: the editor's outcome and "overridden", ClaimCheck's proposal in muted words,
    # no confidence beside them.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Claims").click()
    row = page.locator("#claim-results tbody tr", has=page.locator(f"#pick-{claim.pk}"))
    expect(row.locator(".badge-false")).to_have_text("False")
    expect(row).to_contain_text("overridden")
    expect(row.locator(".proposed-note")).to_have_text("ClaimCheck proposed True")
    expect(row.locator("[class*='tag-conf-']")).to_have_count(0)
    expect(row).not_to_contain_text(CONFIDENCE)
    # The other decided claims keep their confidence in the queue.
    expect(page.locator("#claim-results [class*='tag-conf-']").first).to_be_visible()
    screenshot("queue-override-row")


def test_a_kept_verdict_says_who_kept_it_and_keeps_its_confidence(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claim = Claim.objects.get(text__startswith="Veltria Motors opened")
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")

    page.get_by_role("button", name="Keep this verdict").click()

    card = page.locator("#verdict")
    expect(card.locator("#verdict-kept")).to_have_text(f"kept by {editor.username}")
    expect(card.locator(".verdict-outcome .badge-xl")).to_have_text("True")
    expect(card.locator("#verdict-confidence")).to_contain_text(CONFIDENCE)
    expect(card.get_by_role("heading", name="ClaimCheck proposed")).to_have_count(0)
    expect(card.locator("#verdict-editor")).to_have_count(0)
    _shoot(page, card, "claim-kept-card-only")
    screenshot("claim-kept-card")
