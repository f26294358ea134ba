"""The claim page in step with itself: each timeline step carries what the claim is doing
against its budgets and the run's counts as of that step, which the status bar shows."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claimcheck.config import get_config
from claims.models import Claim, ClaimStatus, EventKind
from decisions.pipeline import claim_pipeline_run
from decisions.services import claim_submit
from demo.loader import demo_claims, demo_load
from desk.selectors import progress_of, timeline
from tests.factories import ClaimFactory, EvidenceFactory, PipelineEventFactory


def test_a_running_step_says_where_it_is_against_its_budget() -> None:
    budgets = get_config().budgets
    kinds = ["queued", "query", "search", "gate", "crawl", "evidence", "crawl"]
    assert progress_of(kinds=kinds).label == (
        f"step 6: reading page 2 of at most {budgets.total_crawls}"
    )
    kinds = ["queued", "query", "search", "gate", "query"]
    assert progress_of(kinds=kinds).label == (
        f"step 4: composing query 2 of at most {budgets.max_queries}"
    )
    assert progress_of(kinds=["queued", "query", "search"]).label == (
        f"step 2: searching: query 1 of at most {budgets.max_queries}"
    )
    assert progress_of(kinds=["queued", "query", "search", "gate"]).label == (
        "step 3: choosing what to read"
    )


@pytest.mark.django_db
def test_each_step_carries_the_runs_counts_as_of_that_step(editor_client: Client) -> None:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    kinds = [
        EventKind.QUEUED,
        EventKind.QUERY,
        EventKind.SEARCH,
        EventKind.CRAWL,
        EventKind.EVIDENCE,
        EventKind.CRAWL,
    ]
    for sequence, kind in enumerate(kinds, start=1):
        if kind == EventKind.EVIDENCE:  # the row is stored, then its step says so
            EvidenceFactory(claim=claim, stance="support")
        payload = {"run": 1, "url": f"https://site{sequence}.example/report", "title": "Report"}
        PipelineEventFactory(claim=claim, kind=kind, sequence=sequence, payload=payload)
    (run,) = timeline(
        events=list(claim.events.order_by("sequence")),
        stored=dict(claim.evidence.values_list("pk", "created_at")),
    )
    counts = [entry.counts for entry in run.entries]
    assert counts[2] == {"queries": 1, "pages": 0, "evidence": 0}
    assert counts[4] == {"queries": 1, "pages": 1, "evidence": 1}
    assert counts[5] == {"queries": 1, "pages": 2, "evidence": 1}
    assert [entry.step for entry in run.entries] == [0, 1, 2, 3, 4, 5]
    total = get_config().budgets.total_crawls
    assert run.entries[5].doing == f"reading page 2 of at most {total}"
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    assert 'data-step="5" data-doing="reading page 2 of at most' in page
    assert 'data-queries="1" data-pages="2" data-evidence="1"' in page
    assert f"Step 5: reading page 2 of at most {total}" in page
    assert "Run 1 · 1 query · 2 pages read · 1 evidence" in page
    # The row carries the step that reported it, and the heading counts the rows shown.
    assert 'class="ev-row" data-seq="5"' in page
    assert 'id="evidence-count">1<' in page


def test_a_row_stored_before_its_step_waits_for_it(editor_client: Client) -> None:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    for sequence, kind in enumerate([EventKind.QUEUED, EventKind.QUERY, EventKind.SEARCH], 1):
        PipelineEventFactory(claim=claim, kind=kind, sequence=sequence, payload={"run": 1})
    EvidenceFactory(claim=claim, stance="support")  # its step is not recorded yet

    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    assert 'id="evidence-count">0<' in page and "ev-row" not in page
    assert "Run 1 · 1 query · 0 pages read · 0 evidence" in page


def test_the_query_being_composed_or_sent_is_counted_per_attempt() -> None:
    budgets = get_config().budgets
    kinds = ["queued", "query", "query", "search", "gate", "decision", "search"]
    assert progress_of(kinds=kinds[:3]).label.endswith(
        f"composing query 1 of at most {budgets.max_queries}"
    )
    assert progress_of(kinds=kinds[:4]).label.endswith(
        f"searching: query 1 of at most {budgets.max_queries}"
    )
    assert progress_of(kinds=kinds).label == (
        f"step 6: searching: query 2 of at most {budgets.max_queries}"
    )
    assert progress_of(kinds=[*kinds, "gate", "decision", "search"]).label.endswith(
        f"query 3 of at most {budgets.max_queries}"
    )


@pytest.mark.django_db
def test_a_checked_claims_last_step_counts_the_queries_and_pages_its_status_bar_says() -> None:
    demo_load()
    for demo in demo_claims()[:3]:
        claim, _ = claim_submit(text=demo.text, enqueue=False)
        claim_pipeline_run(claim_id=claim.pk)
        claim = Claim.objects.get(pk=claim.pk)
        (run,) = timeline(
            events=list(claim.events.order_by("sequence")),
            stored=dict(claim.evidence.values_list("pk", "created_at")),
        )
        last = run.entries[-1].counts
        assert (last["queries"], last["pages"], last["evidence"]) == (
            claim.queries_used,
            claim.crawls_used,
            claim.evidence_count,
        ), demo.text
        evidence = [entry.counts["evidence"] for entry in run.entries]
        assert evidence == sorted(evidence) and evidence[-1] > 0, evidence
