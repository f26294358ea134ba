"""The dashboard's second-phase figures, from the rows a check leaves behind."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from claims.models import Claim, ClaimStatus, EventKind
from desk import charts
from desk.selectors import Share, dashboard_data, enrichment_metrics
from tests.factories import (
    ClaimFactory,
    DecidedClaimFactory,
    FactCheckMatchFactory,
    PipelineEventFactory,
    SearchRunFactory,
)

pytestmark = pytest.mark.django_db


def _decided(text: str, channel: str, *, took: float) -> Claim:
    now = timezone.now()
    claim = DecidedClaimFactory.create(text=text, source_channel=channel)
    Claim.objects.filter(pk=claim.pk).update(started_at=now - timedelta(seconds=took))
    return claim


def _read(claim: Claim, *, cached: bool | None, evidence: int, hub: bool = False) -> None:
    payload = {"run": 1, "http_status": 200, "hub": hub, "evidence": evidence}
    if cached is not None:
        payload["cached"] = cached
    PipelineEventFactory.create(claim=claim, kind=EventKind.CRAWL, payload=payload)


def _metrics(name: str, status: str, latency_ms: int, error: str = "") -> dict[str, object]:
    return {name: {"status": status, "latency_ms": latency_ms, "error": error}}


def test_the_rates_latencies_and_provider_health_count_what_the_checks_left() -> None:
    checked = _decided("The tram line opened in May 2024", "@metro", took=3)
    again = _decided("The tram line opened in May 2024", "@city", took=20)
    alone = _decided("The ferry was cancelled in 2023", "@metro", took=200)
    ClaimFactory.create(status=ClaimStatus.RUNNING)  # not decided: counted nowhere
    FactCheckMatchFactory.create(claim=checked)
    _read(checked, cached=True, evidence=2)
    _read(again, cached=False, evidence=0)
    _read(alone, cached=None, evidence=1)  # written before the cache was recorded
    _read(alone, cached=True, evidence=0, hub=True)
    checks = [(True, True), (False, False), (None, False)]  # (cached, verified); None: no page
    for cached, verified in checks:
        PipelineEventFactory.create(
            claim=alone,
            kind=EventKind.VERIFY,
            payload={"run": 1, "cached": cached, "verified": verified},
        )
    SearchRunFactory.create(provider_metrics=_metrics("local", "ok", 120))
    SearchRunFactory.create(provider_metrics=_metrics("local", "failed", 800, "HTTP 500"))
    SearchRunFactory.create(
        provider_metrics=_metrics("local", "failed", 0, "circuit open (30s of cooldown left)")
    )

    metrics = enrichment_metrics(since=timezone.now() - timedelta(days=1))

    assert metrics.fact_check_match == Share(1, 3)
    assert metrics.corroboration == Share(2, 3)  # the tram claim came from two channels
    assert metrics.page_cache == Share(3, 5)
    # The listing page is not a read, nor a snippet check that got no page.
    assert metrics.evidence_match == Share(3, 5)
    assert metrics.claim_latency_counts == [1, 0, 1, 0, 0, 1]
    (local,) = metrics.providers
    assert (local.calls, local.failed, local.breaker_refusals) == (3, 2, 1)
    assert local.error_pct == 66.7
    assert local.latency_counts == [2, 0, 1, 0, 0, 0]


def test_each_figure_is_a_chart_with_its_numbers_table() -> None:
    _decided("The tram line opened in May 2024", "@metro", took=3)
    SearchRunFactory.create(provider_metrics=_metrics("local", "ok", 120))
    drawn = {chart.slug: chart for chart in charts.dashboard_charts(dashboard_data())}
    for slug in (
        "fact-check-match",
        "corroboration",
        "claim-latency",
        "provider-latency",
        "provider-errors",
        "page-cache",
        "evidence-match",
    ):
        assert slug in drawn
        assert "<svg" in drawn[slug].svg
        assert drawn[slug].rows
    assert drawn["provider-errors"].rows == [["local", "1", "0", "0%", "0"]]
    assert drawn["page-cache"].empty  # no page read yet: said, not drawn as 0%
