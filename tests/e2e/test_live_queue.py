"""The queue updates itself while claims are checked, pauses while the tab is hidden, and keeps
asking, more slowly, once nothing runs; two editors see each other's claims and overrides."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from claims.models import Claim, ClaimStatus
from decisions.services import claim_submit
from demo.loader import demo_claims, demo_load
from tests.e2e.test_review_desk import BackgroundWorker, sign_in, worker  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _hide(page: Any, hidden: bool) -> None:
    state = "hidden" if hidden else "visible"
    page.evaluate(
        "state => { Object.defineProperty(document, 'visibilityState',"
        " {value: state, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        state,
    )


def test_the_queue_fills_in_as_claims_are_decided_then_polls_slowly(
    live_server: Any,
    page: Any,
    editor: Any,
    screenshot: Any,
    worker: BackgroundWorker,  # noqa: F811
) -> None:
    demo_load()
    demo = demo_claims()[1]
    claim, _ = claim_submit(text=demo.text, source_channel="e2e-live")
    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "/claims/live/" in r.url else None)
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    page.evaluate("window.__marker = 1")
    row = page.locator("tr", has_text=demo.text[:50])
    expect(row.locator(".badge-queued")).to_be_visible()
    expect(page.get_by_text("1 claim being checked")).to_be_visible()

    # Hidden tab: no polls at all.
    _hide(page, True)
    page.wait_for_timeout(500)
    before = len(polls)
    page.wait_for_timeout(4500)
    assert len(polls) == before, "the queue polled while the tab was hidden"
    _hide(page, False)
    screenshot("queue-live-queued")

    worker.go.set()
    expect(row.locator(".badge-true")).to_be_visible(timeout=60_000)
    assert worker.errors == []
    assert page.evaluate("window.__marker") == 1, "the page was reloaded"
    assert Claim.objects.get(pk=claim.pk).status == ClaimStatus.DECIDED
    expect(page.get_by_text("1 claim being checked")).to_have_count(0)
    assert 204 in polls and 200 in polls, polls
    screenshot("queue-live-decided")

    # Nothing runs: the queue still asks, every three seconds, and nothing new is a 204.
    page.wait_for_timeout(500)
    settled = len(polls)
    page.wait_for_timeout(6500)
    idle = polls[settled:]
    assert 1 <= len(idle) <= 4 and set(idle) == {204}, idle
