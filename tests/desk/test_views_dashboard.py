"""The dashboard: each chart drawn with its numbers and named axes, and an empty one that says what
to do. Permissions, escaping and query counts are in test_views_guards.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from claimcheck.models import ModelReplyDay
from claims.models import Outcome
from tests.desk.desk import text
from tests.factories import DecidedClaimFactory, SearchRunFactory

pytestmark = pytest.mark.django_db


def test_the_dashboard_draws_each_chart_with_its_numbers(editor_client: Client) -> None:
    for outcome in (Outcome.TRUE, Outcome.TRUE, Outcome.FALSE):
        DecidedClaimFactory(outcome=outcome, queries_used=2, crawls_used=1)
    DecidedClaimFactory(outcome=Outcome.INVALID, overridden=True, queries_used=3)
    SearchRunFactory(provider_metrics={"local": {"status": "ok", "latency_ms": 30, "count": 4}})
    SearchRunFactory(provider_metrics={"local": {"status": "failed", "latency_ms": 90, "count": 0}})

    page = text(editor_client.get(reverse("dashboard")))

    for title in (
        "Outcomes over time",
        "Overrides rate",
        "Queries and crawls per claim",
        "Provider latency and success",
        "Verdict confidence",
        "Provider agreement",
        "Spend against the budget",
    ):
        assert f">{title}</h2>" in page
    assert page.count("<svg") >= 5
    assert "1 of 4 decided claims overridden (25.0%)." in page
    assert (
        '<td>local</td><td class="num">2</td><td class="num">1</td><td class="num">50.0%</td>'
        in page
    )
    assert "$0.00 of $5.00" in page


def test_the_per_claim_and_confidence_charts_name_their_axes(editor_client: Client) -> None:
    DecidedClaimFactory(outcome=Outcome.TRUE, queries_used=2, crawls_used=1)
    SearchRunFactory(provider_metrics={"local": {"status": "ok", "latency_ms": 30, "count": 4}})
    page = text(editor_client.get(reverse("dashboard")))
    per_claim = page[page.index(">Queries and crawls per claim</h2>") :]
    per_claim = per_claim[: per_claim.index("</svg>")]
    assert '<text class="axis-label"' in per_claim
    assert ">queries or pages read for one claim</text>" in per_claim
    assert ">claims</text>" in per_claim


def test_an_empty_dashboard_says_what_to_do(editor_client: Client) -> None:
    page = text(editor_client.get(reverse("dashboard")))
    assert "Nothing to chart yet." in page and "No data yet for this chart." in page


def test_verdict_confidence_is_claimchecks_own_and_leaves_overridden_claims_out(
    editor_client: Client,
) -> None:
    for score in (0.95, 0.55):
        DecidedClaimFactory(outcome=Outcome.TRUE, fact_check_score=score, fact_check_tier="high")
    DecidedClaimFactory(
        outcome=Outcome.FALSE, overridden=True, fact_check_score=0.92, fact_check_tier="high"
    )

    page = text(editor_client.get(reverse("dashboard")))

    assert (
        "2 claims decided by ClaimCheck and not overridden, by its fact-check score: 2 high" in page
    )
    assert "Overridden claims are left out: their outcome is an editor&#x27;s." in page


def test_the_dashboard_counts_the_model_findings_clipped_and_refused_this_week(
    editor_client: Client,
) -> None:
    today = timezone.localdate()
    ModelReplyDay.objects.create(day=today, purpose="stance", clipped=2, refused=1)
    ModelReplyDay.objects.create(day=today - timedelta(days=6), purpose="stance", clipped=1)
    ModelReplyDay.objects.create(day=today, purpose="rewrite", refused=3)
    ModelReplyDay.objects.create(day=today - timedelta(days=7), purpose="stance", clipped=50)

    page = text(editor_client.get(reverse("dashboard")))

    assert "Model replies: 3 findings clipped into range, 4 refused (last 7 days)." in " ".join(
        page.split()
    )


def test_without_a_model_or_its_repairs_the_dashboard_says_nothing_of_them(
    editor_client: Client,
) -> None:
    assert "Model replies:" not in text(editor_client.get(reverse("dashboard")))
