"""An editor reviews the demo claims from the keyboard: j / k through the claims that need review,
r to keep a verdict, o to override, u to re-run (after a question), ? for the list of keys."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim, ClaimStatus
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _to_review() -> list[Claim]:
    return list(
        Claim.objects.filter(status=ClaimStatus.DECIDED, reviewed_at__isnull=True).order_by(
            "created_at", "id"
        )
    )


def test_an_editor_reviews_claims_with_the_keyboard(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    first, second, third = _to_review()[:3]
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")

    page.keyboard.press("j")
    expect(page).to_have_url(f"{live_server.url}/claims/{first.pk}/")
    page.keyboard.press("?")
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()
    screenshot("review-keys-overlay")
    page.keyboard.press("?")
    expect(page.get_by_role("dialog", name="Keyboard shortcuts")).to_be_hidden()

    page.keyboard.press("r")
    expect(page.get_by_text("reviewed", exact=False).first).to_be_visible()
    expect(page.locator(".tag-review")).to_have_count(0)
    first.refresh_from_db()
    assert first.reviewed_at is not None

    page.keyboard.press("j")
    expect(page).to_have_url(f"{live_server.url}/claims/{second.pk}/")
    page.keyboard.press("j")
    expect(page).to_have_url(f"{live_server.url}/claims/{third.pk}/")
    page.keyboard.press("k")
    expect(page).to_have_url(f"{live_server.url}/claims/{second.pk}/")

    # Keys typed into a field stay there.
    page.keyboard.press("o")
    expect(page.get_by_label("New outcome")).to_be_focused()
    page.get_by_label("Reason").fill("jkr")
    expect(page).to_have_url(f"{live_server.url}/claims/{second.pk}/")
    page.get_by_label("Reason").blur()

    # Re-run asks first, in the page; saying no changes nothing.
    page.keyboard.press("u")
    expect(page.locator("#confirm-question")).to_contain_text("Re-run the check of this claim?")
    page.keyboard.press("Escape")
    expect(page.locator("#confirm")).to_be_hidden()
    page.wait_for_timeout(500)
    second.refresh_from_db()
    assert second.run_number == 1
    screenshot("review-keys-claim")
