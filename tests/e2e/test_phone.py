"""On a phone (390 px, a touch screen): the queue is a list of cards showing each claim, its
outcome, ClaimCheck's confidence and its age; a claim page shows the verdict and the override
form before the timeline; no keyboard hints show."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield page
    context.close()


def _inside(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1


def test_the_queue_is_a_list_of_cards_with_outcome_confidence_and_age(
    live_server: Any, phone: Any, editor: Any
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    sign_in(phone, live_server, editor)
    phone.goto(f"{live_server.url}/")

    rows = phone.locator("table.queue tbody tr")
    expect(rows.first).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    claim = Claim.objects.filter(fact_check_score__isnull=False, overridden=False).first()
    assert claim is not None
    row = phone.locator("table.queue tbody tr", has=phone.locator(f"#pick-{claim.pk}"))
    for part in (".claim-cell a", ".outcome-cell .badge", ".conf-cell .conf-figure", ".age-cell"):
        cell = row.locator(part)
        expect(cell).to_be_visible()
        assert _inside(phone, cell), part
    expect(row.locator(".conf-figure")).to_have_text(f"{claim.fact_check_score:.2f}")
    # A card, not a table row: the claim's text spans the card above its outcome and age.
    text_box = row.locator(".claim-cell").bounding_box()
    outcome_box = row.locator(".outcome-cell").bounding_box()
    assert text_box and outcome_box and outcome_box["y"] >= text_box["y"] + text_box["height"] - 1
    expect(phone.locator("table.queue thead th").first).not_to_be_in_viewport()
    expect(phone.get_by_role("link", name="Review next")).to_be_visible()
    expect(phone.locator("kbd").first).to_be_hidden()
    phone.screenshot(path=str(SCREENSHOTS / "phone-queue-cards.png"), full_page=True)


def test_a_claim_page_shows_the_verdict_and_override_before_the_timeline_and_no_key_hints(
    live_server: Any, phone: Any, editor: Any
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claim = Claim.objects.order_by("pk").first()
    assert claim is not None
    sign_in(phone, live_server, editor)
    phone.goto(f"{live_server.url}/claims/{claim.pk}/")

    verdict = phone.locator("#verdict").bounding_box()
    override = phone.locator(".override-form").bounding_box()
    timeline = phone.locator('section[aria-labelledby="timeline-head"]').bounding_box()
    assert verdict and override and timeline
    assert verdict["y"] < override["y"] < timeline["y"]
    assert override["y"] < 2 * PHONE["height"] + verdict["y"]
    kbd = phone.locator("kbd")
    assert kbd.count() > 0
    for number in range(kbd.count()):
        expect(kbd.nth(number)).to_be_hidden()
    expect(phone.get_by_text("for all shortcuts")).to_be_hidden()
    phone.screenshot(path=str(SCREENSHOTS / "phone-claim-verdict-first.png"))
