"""The dashboard's enrichment charts in a real browser, after a claim has been checked."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from claims.models import Claim
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_submit
from demo.loader import demo_claims, demo_load
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLES = [
    "Fact-check match rate",
    "Corroboration coverage",
    "Checking time per claim",
    "Latency per provider",
    "Provider errors and circuit-breaker refusals",
    "Page cache hits",
    "Evidence match rate",
]


def test_an_editor_reads_the_enrichment_charts_and_their_numbers(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    demo_load()
    claim = next(c for c in demo_claims() if "Battery Passport" in c.text)
    submitted, _ = claim_submit(
        text=claim.text,
        timeframe_start=claim.timeframe_start,
        timeframe_end=claim.timeframe_end,
        source_channel="@desk",
        enqueue=False,
    )
    assert claim_pipeline_run(claim_id=submitted.pk) is not None

    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/dashboard/")
    for title in TITLES:
        expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible()
    latency = page.get_by_role("region", name="Latency per provider")
    expect(latency.locator("svg.chart")).to_be_visible()
    expect(latency.locator(".legend")).to_contain_text("local")
    for checked in ("Page cache hits", "Evidence match rate", "Checking time per claim"):
        expect(page.get_by_role("region", name=checked).locator("svg.chart")).to_be_visible()
    evidence = page.get_by_role("region", name="Evidence match rate")
    evidence.locator("details.numbers summary").click()
    expect(evidence.get_by_role("table")).to_contain_text("With evidence")
    cache = page.get_by_role("region", name="Page cache hits")
    cache.locator("details.numbers summary").click()
    expect(cache.get_by_role("table")).to_contain_text("From the cache")
    screenshot("dashboard-enrichment")


def test_the_dashboard_tells_verdict_confidence_from_provider_agreement(
    live_server: Any, page: Any, editor: Any
) -> None:
    demo_load()
    for demo in demo_claims()[:3]:
        submitted, _ = claim_submit(
            text=demo.text,
            timeframe_start=demo.timeframe_start,
            timeframe_end=demo.timeframe_end,
            source_channel="@desk",
            enqueue=False,
        )
        claim_pipeline_run(claim_id=submitted.pk)
    scores = sorted(
        score or 0.0 for score in Claim.objects.values_list("fact_check_score", flat=True)
    )

    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/dashboard/")
    expect(page.get_by_role("heading", name="Confidence histogram")).to_have_count(0)
    agreement = page.get_by_role("region", name="Provider agreement")
    expect(agreement).to_contain_text("how many providers returned the same URL")
    verdicts = page.get_by_role("region", name="Verdict confidence")
    expect(verdicts).to_contain_text(
        "3 claims decided by ClaimCheck and not overridden, by its fact-check score"
    )
    expect(verdicts.locator("svg.chart")).to_be_visible()
    verdicts.locator("details.numbers summary").click()
    rows = verdicts.get_by_role("table").locator("tbody tr")
    counted = sum(int(text.split("\t")[-1]) for text in rows.all_inner_texts())
    assert counted == len(scores) == 3
    top = max(scores)
    expect(rows.last).to_contain_text(f"{min(9, int(top * 10)) / 10:.1f} to")
