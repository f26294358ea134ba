"""Two editors, each in a browser of their own with the queue open: a claim one of them posts
through the API and an override the other makes reach both queues without a reload, and the
order, the ticked boxes and the scroll position one of them set stay as they were."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.e2e.test_review_desk import sign_in
from tests.factories import DecidedClaimFactory, UserFactory, VerdictFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_CLAIM = "The Nordvik harbour authority approved a second ferry terminal in 2025"


@pytest.fixture
def second_context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 500})
    yield context
    context.close()


def _queue_row(page: Any, text: str) -> Any:
    return page.locator("#claim-results tbody tr", has_text=text)


def test_two_editors_see_each_others_claims_and_overrides_arrive(
    live_server: Any,
    page: Any,
    second_context: Any,
    editor: Any,
    api_token: str,
    monkeypatch: pytest.MonkeyPatch,
    screenshot: Any,
) -> None:
    from django_q.conf import Conf

    # The posted claim waits in the queue for a worker (none runs here).
    monkeypatch.setattr(Conf, "SYNC", False)
    monkeypatch.setattr(Conf, "ORM", "default")
    colleague = UserFactory(username="bea", groups=["editors"])
    for n in range(14):
        DecidedClaimFactory(text=f"The council approved the budget number {n} in 2024")
    verdict: Any = VerdictFactory(claim=DecidedClaimFactory(text="The Halden bridge opened in May"))
    oldest: Any = DecidedClaimFactory(text="The first ferry of the season sailed in April")
    type(oldest).objects.filter(pk=oldest.pk).update(
        created_at=oldest.created_at.replace(year=2020)
    )

    # Editor one sorts oldest first, ticks a claim and scrolls down.
    sign_in(page, live_server, editor)
    page.set_viewport_size({"width": 1280, "height": 500})
    page.goto(f"{live_server.url}/")
    page.locator("thead").get_by_role("link", name="Age").click()
    expect(page).to_have_url(re.compile(r"sort=created"))
    page.evaluate("window.__marker = 1")
    page.locator(f"#pick-{oldest.pk}").check()
    page.evaluate("window.scrollTo(0, 300)")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 0

    # Editor two has the queue open in one tab and the claim page in another.
    other = second_context.new_page()
    other.set_default_timeout(10_000)
    sign_in(other, live_server, colleague)
    other.goto(f"{live_server.url}/")
    other.evaluate("window.__marker = 2")

    # A claim posted through the API with editor one's token reaches both queues.
    response = Client().post(
        "/api/claims",
        {"text": NEW_CLAIM},
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_token}"},
    )
    assert response.status_code == 202, response.content
    expect(_queue_row(other, NEW_CLAIM).locator(".badge-queued")).to_be_visible(timeout=8000)
    expect(_queue_row(page, NEW_CLAIM).locator(".badge-queued")).to_be_visible(timeout=8000)

    # Editor two overrides a verdict on the claim page, in a second tab.
    tab = second_context.new_page()
    tab.goto(f"{live_server.url}/claims/{verdict.claim.pk}/")
    tab.get_by_label("New outcome").select_option("false")
    tab.get_by_label("Reason").fill("The register lists the bridge as opening in June.")
    tab.get_by_role("button", name="Override").click()
    expect(tab.locator("#verdict-editor .badge-xl")).to_have_text("False")

    for queue in (page, other):
        row = _queue_row(queue, "The Halden bridge opened in May")
        expect(row.locator(".badge-false")).to_be_visible(timeout=8000)
        expect(row).to_contain_text("overridden")
    assert page.evaluate("window.__marker") == 1 and other.evaluate("window.__marker") == 2

    # Editor one's order, ticked box and scroll position are as they were.
    assert "sort=created" in page.url
    expect(page.locator("thead th[aria-sort='descending']")).to_contain_text("Age")
    first_row = page.locator("#claim-results tbody tr").first
    expect(first_row).to_contain_text("The first ferry of the season sailed in April")
    assert page.locator(f"#pick-{oldest.pk}").is_checked()
    assert page.evaluate("window.scrollY") == scrolled
    screenshot("queue-two-editors")
