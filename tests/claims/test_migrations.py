"""The claim moved from the core app to `claims` with its tables: a database that holds claims
from before the move keeps every row, and the rows that point at them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from claims.models import Claim
from decisions.models import Verdict
from harvester.models import SearchRun

# The last migration of each app before the move, and the move's own migrations undone.
BEFORE_THE_MOVE = [
    ("claimcheck", "0007_claim_language"),
    ("decisions", "0007_saved_queue"),
    ("evidence", "0008_evidence_duplicate_of"),
    ("harvester", "0004_result_language"),
    ("claims", None),
]


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    reached = [(app, name) for app, name in targets if name is not None]
    return executor.loader.project_state(reached).apps


def _latest() -> list[tuple[str, str | None]]:
    executor = MigrationExecutor(connection)
    return list(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_claims_stored_before_the_move_are_read_through_the_claims_app_with_their_rows() -> None:
    latest = _latest()
    try:
        old = _migrate(BEFORE_THE_MOVE)
        OldClaim = old.get_model("claimcheck", "Claim")
        OldEvent = old.get_model("claimcheck", "PipelineEvent")
        OldVerdict = old.get_model("decisions", "Verdict")
        OldRun = old.get_model("harvester", "SearchRun")
        claim = OldClaim.objects.create(
            text="The harbour bridge opened in May 2024",
            normalized_hash="h" * 64,
            status="decided",
            outcome="true",
        )
        OldEvent.objects.create(claim=claim, sequence=1, kind="queued", message="Claim queued")
        OldVerdict.objects.create(claim=claim, outcome="true", reason="sufficient")
        OldRun.objects.create(
            claim=claim, attempt=1, query="harbour bridge", rewritten_template="harbour bridge"
        )
        ContentType.objects.get_or_create(app_label="claimcheck", model="claim")

        _migrate(latest)

        moved = Claim.objects.get(pk=claim.pk)
        assert moved.text == "The harbour bridge opened in May 2024"
        assert moved.outcome == "true"
        assert [event.message for event in moved.events.all()] == ["Claim queued"]
        assert Verdict.objects.get(claim=moved).outcome == "true"
        assert SearchRun.objects.get(claim=moved).query == "harbour bridge"
        assert ContentType.objects.get_for_model(Claim).pk == (
            ContentType.objects.get(app_label="claims", model="claim").pk
        )
        assert not ContentType.objects.filter(app_label="claimcheck", model="claim").exists()
    finally:
        _migrate(latest)
