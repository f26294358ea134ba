"""Two editors in two browsers on one claim: what one decides reaches the other's open page
without a reload; a form the other is filling in says the claim changed before it is sent; and
sent anyway, it changes nothing, says what changed, and comes back ready to send again."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from claims.models import Claim, Outcome
from decisions.models import Override
from decisions.services import verdict_override
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_review_desk import sign_in
from tests.factories import UserFactory, VerdictFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _page_of(browser: Any, live_server: Any, user: Any, claim: Claim) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server, user)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    return page


def test_an_override_reaches_the_other_editors_page_and_a_stale_form_changes_nothing(
    live_server: Any, browser: Any
) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    verdict: Any = VerdictFactory(outcome=Outcome.FALSE, claim__outcome=Outcome.FALSE)
    claim = verdict.claim
    one: Any = UserFactory(username="editor1", groups=["editors"])
    two: Any = UserFactory(username="editor2", groups=["editors"])
    first = _page_of(browser, live_server, one, claim)
    second = _page_of(browser, live_server, two, claim)
    first.evaluate("window.__marker = 1")

    # editor2 overrides in their browser; editor1's open page shows it without a reload.
    second.get_by_label("New outcome").select_option("invalid")
    second.get_by_label("Reason").fill("Too vague to check.")
    sent = time.monotonic()
    second.get_by_role("button", name="Override", exact=True).click()
    expect(second.locator("#verdict-by")).to_contain_text("editor2")
    expect(first.locator("#verdict-by")).to_contain_text("editor2", timeout=15_000)
    reached = time.monotonic() - sent
    assert first.evaluate("window.__marker") == 1, "the page was reloaded"
    expect(first.locator("#verdict-editor-reason")).to_have_text("Too vague to check.")
    print(f"an override reached the other editor's open page in {reached:.1f} s")

    # editor1 starts an override; while they type, editor2 changes the claim again.
    first.get_by_label("New outcome").select_option("true")
    reason = first.get_by_label("Reason")
    reason.fill("The ministry confirmed it.")
    reason.focus()
    verdict_override(
        claim=Claim.objects.get(pk=claim.pk),
        editor=two,
        to_outcome=Outcome.FALSE,
        reason="Back to ClaimCheck's reading.",
    )
    note = first.locator(".override-form [data-live-note]")
    expect(note).to_be_visible(timeout=15_000)
    expect(note).to_contain_text("editor2 changed the outcome from Invalid to False")
    first.screenshot(path=str(SCREENSHOTS / "two-editors-stale-note.png"))

    # Sent anyway: refused, nothing changed, what changed said, the form ready again.
    first.get_by_role("button", name="Override", exact=True).click()
    expect(first.locator("#claim-live")).to_contain_text(
        "the claim changed since you read it: editor2 changed the outcome from Invalid to False"
    )
    assert Claim.objects.get(pk=claim.pk).outcome == Outcome.FALSE
    assert Override.objects.filter(editor=one).count() == 0
    expect(first.get_by_label("Reason")).to_have_value("The ministry confirmed it.")

    first.get_by_role("button", name="Override", exact=True).click()
    expect(first.locator("#verdict-by")).to_contain_text("editor1")
    expect(first.locator("#verdict-by")).to_contain_text("editor2's False")
    assert Claim.objects.get(pk=claim.pk).outcome == Outcome.TRUE
    assert [o.editor.username for o in Override.objects.select_related("editor")] == [
        "editor1",
        "editor2",
        "editor2",
    ]
