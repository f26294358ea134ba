"""How far a claim being checked has got, as the claim page and the queue say it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.models import ClaimStatus, EventKind
from desk.selectors import claims_progress, progress_of
from tests.factories import ClaimFactory, DecidedClaimFactory, PipelineEventFactory


def test_the_step_counts_the_current_runs_steps_and_names_the_latest() -> None:
    assert progress_of(kinds=[]).label == "waiting for a worker"
    assert progress_of(kinds=["queued"]).label == "waiting for a worker"
    assert progress_of(kinds=["queued", "query", "search", "gate", "crawl"]).label == (
        "step 4: reading page 1 of at most 4"
    )
    # A re-run counts from its own "queued".
    rerun = ["queued", "query", "search", "verdict", "queued", "query"]
    assert progress_of(kinds=rerun).label == "step 1: composing query 1 of at most 4"


@pytest.mark.django_db
def test_the_queue_reads_the_progress_of_its_running_claims_in_one_query() -> None:
    running: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    for kind in (EventKind.QUEUED, EventKind.QUERY, EventKind.SEARCH):
        PipelineEventFactory(claim=running, kind=kind)
    queued: Any = ClaimFactory()
    decided: Any = DecidedClaimFactory()
    with CaptureQueriesContext(connection) as queries:
        progress = claims_progress(claims=[running, queued, decided])
    assert len(queries) == 1
    assert progress[running.pk].label == "step 2: searching: query 1 of at most 4"
    assert progress[queued.pk].label == "waiting for a worker"
    assert decided.pk not in progress
    with CaptureQueriesContext(connection) as none:
        assert claims_progress(claims=[decided]) == {}
    assert len(none) == 0
