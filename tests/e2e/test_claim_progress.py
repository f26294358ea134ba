"""Progress while a claim is checked: the claim page and the queue say which step it is on and
what it is doing (steps that arrive together, shown one after another, are in
`test_live_frames`)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

import decisions.step_events
from decisions.services import claim_submit
from demo.loader import demo_claims, demo_load
from tests.e2e.test_review_desk import BackgroundWorker, sign_in, worker  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEP = re.compile(r"^Step (\d+): [a-z0-9: ]+$")


def test_the_claim_page_counts_the_steps_as_they_happen(
    live_server: Any,
    page: Any,
    editor: Any,
    screenshot: Any,
    worker: BackgroundWorker,  # noqa: F811
) -> None:
    demo_load()
    claim, _ = claim_submit(text=demo_claims()[0].text, source_channel="e2e-progress")
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    step = page.locator("#claim-step")
    expect(step).to_have_text("Waiting for a worker")

    worker.go.set()
    seen: list[str] = []
    verdict = page.get_by_role("heading", name="Verdict", exact=True)
    deadline = time.monotonic() + 60
    while not verdict.is_visible() and time.monotonic() < deadline:
        text = page.evaluate("document.getElementById('claim-step')?.textContent || ''")
        if STEP.match(text) and (not seen or seen[-1] != text):
            seen.append(text)
            if len(seen) == 3:
                screenshot("claim-progress")
        page.wait_for_timeout(50)
    expect(verdict).to_be_visible()
    assert worker.errors == []
    numbers = [int(STEP.match(text)[1]) for text in seen]  # type: ignore[index]
    assert len(numbers) >= 3, seen
    assert numbers == sorted(numbers), seen
    expect(step).to_be_hidden()  # decided: the verdict says the rest


def test_the_queue_says_which_step_a_running_claim_is_on(
    live_server: Any,
    page: Any,
    editor: Any,
    worker: BackgroundWorker,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Slower steps than the worker's own pause, so that the queue's refreshes see several.
    record = decisions.step_events.event_record

    def slower(**kwargs: Any) -> Any:
        event = record(**kwargs)
        time.sleep(0.35)
        return event

    monkeypatch.setattr(decisions.step_events, "event_record", slower)
    demo_load()
    demo = demo_claims()[1]
    claim_submit(text=demo.text, source_channel="e2e-progress")
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    row = page.locator("tr", has_text=demo.text[:50])
    expect(row.locator(".step")).to_have_text("waiting for a worker")
    worker.go.set()
    label = re.compile(r"^step \d+: [a-z0-9: ]+$")
    expect(row.locator(".step")).to_have_text(label, timeout=30_000)
    expect(row.locator(".badge-true")).to_be_visible(timeout=60_000)
    expect(row.locator(".step")).to_have_count(0)
    assert worker.errors == []
