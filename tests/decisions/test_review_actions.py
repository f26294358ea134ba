"""Marking a verdict reviewed: one atomic action with its own review row."""

from __future__ import annotations

from typing import Any

import pytest

from claims.models import ClaimStatus, EventKind
from claims.services import review as claim_review
from decisions.errors import ClaimError
from decisions.services import claim_mark_reviewed, claim_take
from tests.factories import ClaimFactory, DecidedClaimFactory

pytestmark = pytest.mark.django_db


def test_marking_reviewed_releases_the_claim_and_records_a_review_by_the_editor(
    editor: Any,
) -> None:
    claim = DecidedClaimFactory.create()
    claim_take(claim=claim, editor=editor)
    claim_mark_reviewed(claim=claim, editor=editor)
    claim.refresh_from_db()
    assert claim.reviewed_at is not None
    assert claim.assigned_to is None
    last = claim.events.order_by("sequence").last()
    assert last is not None
    assert last.kind == EventKind.REVIEW
    assert last.message == f"{editor.get_username()} reviewed the verdict and kept it"
    assert not claim.events.filter(kind=EventKind.OVERRIDE).exists()


def test_a_claim_not_decided_cannot_be_marked_reviewed_and_nothing_changes(editor: Any) -> None:
    claim = ClaimFactory.create(status=ClaimStatus.RUNNING)
    with pytest.raises(ClaimError) as refused:
        claim_mark_reviewed(claim=claim, editor=editor)
    assert refused.value.field == "status"
    claim.refresh_from_db()
    assert claim.reviewed_at is None
    assert not claim.events.exists()


def test_when_the_review_row_cannot_be_written_the_claim_is_not_marked_reviewed(
    editor: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    claim = DecidedClaimFactory.create()

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("the event log is unreachable")

    monkeypatch.setattr(claim_review, "event_record", broken)
    with pytest.raises(RuntimeError):
        claim_mark_reviewed(claim=claim, editor=editor)
    claim.refresh_from_db()
    assert claim.reviewed_at is None


def test_a_claim_decided_after_the_page_was_read_is_judged_by_its_row_not_the_copy(
    editor: Any,
) -> None:
    """The state is checked on the locked row: a stale copy that says 'decided' does not let a
    re-queued claim be marked reviewed."""
    claim = DecidedClaimFactory.create()
    type(claim).objects.filter(pk=claim.pk).update(status=ClaimStatus.QUEUED)
    with pytest.raises(ClaimError):
        claim_mark_reviewed(claim=claim, editor=editor)
