"""The reads other apps make of search runs (the engine, the dashboard, the evaluation)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from harvester.selectors import (
    processed_results,
    recent_provider_metrics,
    result_agreement,
    result_urls_of_claim,
    search_runs_of_claim,
)
from tests.factories import ClaimFactory, ProcessedResultFactory, SearchRunFactory

pytestmark = pytest.mark.django_db


def test_a_claims_runs_of_the_current_pass_come_in_attempt_order() -> None:
    claim = ClaimFactory.create()
    third = SearchRunFactory.create(claim=claim, attempt=3)
    SearchRunFactory.create(claim=claim, attempt=1)
    second = SearchRunFactory.create(claim=claim, attempt=2)
    SearchRunFactory.create(claim=ClaimFactory.create(), attempt=2)

    assert search_runs_of_claim(claim=claim, after_attempt=1) == [second, third]


def test_the_urls_a_claims_searches_found_are_read_across_its_runs() -> None:
    claim = ClaimFactory.create()
    first = SearchRunFactory.create(claim=claim, attempt=1)
    second = SearchRunFactory.create(claim=claim, attempt=2)
    ProcessedResultFactory.create(run=first, url="https://a.example/1")
    ProcessedResultFactory.create(run=second, url="https://b.example/2")
    ProcessedResultFactory.create(url="https://elsewhere.example/")

    assert sorted(result_urls_of_claim(claim=claim)) == [
        "https://a.example/1",
        "https://b.example/2",
    ]


def test_processed_results_come_best_first() -> None:
    run = SearchRunFactory.create()
    low = ProcessedResultFactory.create(run=run, confidence=1, best_rank=1)
    high_late = ProcessedResultFactory.create(run=run, confidence=2, best_rank=5)
    high_early = ProcessedResultFactory.create(run=run, confidence=2, best_rank=2)

    assert processed_results(run=run) == [high_early, high_late, low]
    assert processed_results(run=run, limit=2) == [high_early, high_late]


def test_provider_metrics_are_the_newest_runs_first_within_the_limit_and_the_day() -> None:
    now = timezone.now()
    for days_ago, count in [(10, 1), (2, 2), (1, 3), (0, 4)]:
        SearchRunFactory.create(
            run_timestamp=now - timedelta(days=days_ago),
            provider_metrics={"serper": {"status": "ok", "count": count}},
        )

    newest = recent_provider_metrics(limit=2)
    since = recent_provider_metrics(limit=10, since=now - timedelta(days=5))

    assert [m["serper"]["count"] for m in newest if m] == [4, 3]
    assert [m["serper"]["count"] for m in since if m] == [4, 3, 2]


def test_agreement_counts_results_by_how_many_providers_found_them() -> None:
    now = timezone.now()
    recent = SearchRunFactory.create(run_timestamp=now)
    old = SearchRunFactory.create(run_timestamp=now - timedelta(days=40))
    for confidence in (1, 1, 2, 3):
        ProcessedResultFactory.create(run=recent, confidence=confidence)
    ProcessedResultFactory.create(run=old, confidence=1)

    assert result_agreement(since=now - timedelta(days=30)) == [(1, 2), (2, 1), (3, 1)]
