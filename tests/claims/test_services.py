"""Every change of a claim's state goes through claims.services and leaves its line on the
timeline; the machine's verdict and an editor's override set the outcome the same way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from claims.errors import ClaimError, ClaimNotRunnable
from claims.models import Claim, ClaimStatus, EventKind, Outcome
from claims.services import (
    ClaimEvent,
    Confidence,
    claim_create,
    claim_decide,
    claim_fail,
    claim_override,
    claim_requeued_after_stop,
    claim_rerun_reset,
    claim_start,
    claims_requeue_stale,
)
from tests.factories import ClaimFactory, UserFactory

pytestmark = pytest.mark.django_db

VERDICT = ClaimEvent(EventKind.VERDICT, "Verdict: True", {"run": 1}, key="1:verdict")
SURE = Confidence(score=0.9, tier="high", note="two sources agree")


def test_a_new_claim_is_queued_with_its_first_line() -> None:
    claim = claim_create(text="The harbour bridge opened in May 2024")
    assert claim.status == ClaimStatus.QUEUED
    assert [e.message for e in claim.events.all()] == ["Claim queued for checking"]


def test_a_claim_is_taken_once_and_a_second_take_is_refused() -> None:
    claim = ClaimFactory.create(status=ClaimStatus.QUEUED)
    taken = claim_start(claim_id=claim.pk)
    assert taken.status == ClaimStatus.RUNNING and taken.started_at is not None
    with pytest.raises(ClaimNotRunnable):
        claim_start(claim_id=claim.pk)


def test_the_machine_verdict_and_an_override_set_the_outcome_the_same_way() -> None:
    claim = ClaimFactory.create(status=ClaimStatus.RUNNING)
    claim_decide(
        claim=claim, outcome=Outcome.TRUE, support=1.8, refute=0.0, confidence=SURE, event=VERDICT
    )
    claim.refresh_from_db()
    assert (claim.status, claim.outcome, claim.overridden) == (
        ClaimStatus.DECIDED,
        Outcome.TRUE,
        False,
    )

    editor = UserFactory.create(username="edna")
    claim_override(
        claim=claim, editor=editor, to_outcome=Outcome.FALSE, proposed=Outcome.TRUE, payload={}
    )
    claim.refresh_from_db()
    assert (claim.outcome, claim.overridden) == (Outcome.FALSE, True)
    assert claim.reviewed_at is not None

    # Back to what the machine proposed: still reviewed, no longer overridden.
    claim_override(
        claim=claim, editor=editor, to_outcome=Outcome.TRUE, proposed=Outcome.TRUE, payload={}
    )
    claim.refresh_from_db()
    assert (claim.outcome, claim.overridden) == (Outcome.TRUE, False)
    messages = [e.message for e in claim.events.order_by("sequence")]
    assert messages == [
        "Verdict: True",
        "edna changed the outcome from True to False",
        "edna changed the outcome from False to True",
    ]


def test_a_failed_claim_keeps_its_error_and_says_so() -> None:
    claim = ClaimFactory.create(status=ClaimStatus.RUNNING)
    claim_fail(
        claim=claim,
        error="HarvestError: every provider failed",
        event=ClaimEvent(EventKind.ERROR, "Failed: every provider failed", {"run": 1}),
    )
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.FAILED
    assert claim.error == "HarvestError: every provider failed"
    assert claim.events.get().kind == EventKind.ERROR


def test_a_rerun_clears_the_last_run_and_a_running_claim_refuses_it() -> None:
    claim = ClaimFactory.create(status=ClaimStatus.DECIDED, outcome=Outcome.TRUE, support_total=2)
    rerun = claim_rerun_reset(claim=claim, user=None)
    assert (rerun.status, rerun.outcome, rerun.support_total, rerun.run_number) == (
        ClaimStatus.QUEUED,
        "",
        0,
        2,
    )
    with pytest.raises(ClaimError):
        claim_rerun_reset(claim=rerun, user=None)


def test_a_claim_whose_worker_died_is_queued_again_with_a_line_saying_why() -> None:
    claim = ClaimFactory.create(status=ClaimStatus.RUNNING)
    Claim.objects.filter(pk=claim.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    live = ClaimFactory.create(status=ClaimStatus.RUNNING)
    moved = claims_requeue_stale(queued_before=timezone.now() - timedelta(hours=2))
    assert moved == [claim.pk]
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.QUEUED
    assert claim.events.get().message == "Queued again: no worker was moving it"
    live.refresh_from_db()
    assert live.status == ClaimStatus.RUNNING


def test_a_stopped_worker_s_claim_is_noted_only_when_it_is_queued() -> None:
    queued = ClaimFactory.create(status=ClaimStatus.QUEUED)
    decided = ClaimFactory.create(status=ClaimStatus.DECIDED)
    assert claim_requeued_after_stop(claim_id=queued.pk) == queued
    assert claim_requeued_after_stop(claim_id=decided.pk) is None
    assert queued.events.get().message == "Queued again: its worker stopped"
    assert not decided.events.exists()
