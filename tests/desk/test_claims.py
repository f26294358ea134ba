"""Claim actions: submit, batch, dedupe, corroboration, re-run, override."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from claims.models import Claim, ClaimStatus, EventKind, Outcome
from decisions.errors import BatchError, ClaimError
from decisions.models import Override
from decisions.services import claim_rerun, claim_submit, claims_submit_batch, verdict_override
from desk.selectors import also_reported_by
from tests.factories import VerdictFactory

pytestmark = pytest.mark.django_db


def test_a_claim_is_stored_trimmed_with_a_queued_event() -> None:
    claim, created = claim_submit(text="  The   agency approved the plan  ", source_channel="@desk")
    assert created
    assert claim.text == "The agency approved the plan"
    assert claim.status == ClaimStatus.QUEUED
    assert list(claim.events.values_list("kind", flat=True)) == [EventKind.QUEUED]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"text": "   "}, "text"),
        ({"text": "x" * 2001}, "text"),
        ({"text": "ok", "source_channel": "c" * 201}, "source_channel"),
        (
            {
                "text": "ok",
                "timeframe_start": datetime(2024, 5, 1, tzinfo=UTC),
                "timeframe_end": datetime(2024, 4, 1, tzinfo=UTC),
            },
            "timeframe_end",
        ),
        ({"text": "ok", "timeframe_start": datetime(2024, 5, 1)}, "timeframe_start"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ClaimError) as caught:
        claim_submit(**kwargs)
    assert caught.value.field == field
    assert Claim.objects.count() == 0


def test_a_claim_of_exactly_2000_characters_is_accepted() -> None:
    claim, _ = claim_submit(text="y" * 2000)
    assert len(claim.text) == 2000


def test_a_timeframe_written_in_the_claim_is_parsed_when_none_is_given() -> None:
    claim, _ = claim_submit(text="Inflation in the euro area fell to 2.4% in March 2024")
    assert claim.timeframe_start == datetime(2024, 3, 1, tzinfo=UTC)
    assert (
        claim.timeframe_end is not None and claim.timeframe_end.date().isoformat() == "2024-03-31"
    )
    assert claim.timeframe_source == "text"


def test_a_given_timeframe_wins_over_the_text() -> None:
    start = datetime(2024, 1, 1, tzinfo=UTC)
    claim, _ = claim_submit(text="It happened in March 2024", timeframe_start=start)
    assert claim.timeframe_start == start and claim.timeframe_end is None
    assert claim.timeframe_source == "given"


def test_the_same_claim_again_within_the_window_returns_the_existing_one() -> None:
    first, created = claim_submit(text="The EU AI Act entered into force.", source_channel="@a")
    again, created_again = claim_submit(
        text="the EU AI act  entered into force", source_channel="@a"
    )
    assert created and not created_again
    assert again.pk == first.pk
    assert Claim.objects.count() == 1


def test_the_same_claim_after_the_window_is_a_new_claim() -> None:
    first, _ = claim_submit(text="The EU AI Act entered into force.")
    Claim.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(hours=25))
    second, created = claim_submit(text="The EU AI Act entered into force.")
    assert created and second.pk != first.pk


def test_claims_from_other_channels_are_also_reported_by() -> None:
    mine, _ = claim_submit(
        text="The EU AI Act entered into force on 1 August 2024", source_channel="@a"
    )
    same, _ = claim_submit(
        text="BREAKING: the EU AI Act entered into force on 1 August 2024", source_channel="@b"
    )
    claim_submit(text="The EU AI Act entered into force on 1 August 2024", source_channel="@a")
    claim_submit(text="Bananas are yellow", source_channel="@c")
    assert [c.source_channel for c in also_reported_by(claim=mine)] == ["@b"]
    assert [c.pk for c in also_reported_by(claim=same)] == [mine.pk]


def test_a_batch_with_one_bad_line_saves_nothing_and_names_the_line() -> None:
    with pytest.raises(BatchError) as caught:
        claims_submit_batch(lines=["First claim here", "", "x" * 2001, "Third claim"])
    assert [(p.line, "2000" in p.message) for p in caught.value.problems] == [(3, True)]
    assert Claim.objects.count() == 0


def test_a_good_batch_saves_every_line() -> None:
    results = claims_submit_batch(lines=["First claim", "  ", "Second claim"], source_channel="@x")
    assert [c.text for c, _ in results] == ["First claim", "Second claim"]
    assert set(Claim.objects.values_list("source_channel", flat=True)) == {"@x"}


def test_an_override_records_who_why_and_the_previous_outcome(editor: Any) -> None:
    verdict = VerdictFactory.create(outcome=Outcome.TRUE)
    claim = verdict.claim
    override = verdict_override(claim=claim, editor=editor, to_outcome="false", reason="Retracted")
    claim.refresh_from_db()
    assert (override.from_outcome, override.to_outcome, override.reason) == (
        "true",
        "false",
        "Retracted",
    )
    assert claim.outcome == "false" and claim.overridden and claim.reviewed_at is not None
    verdict.refresh_from_db()
    assert verdict.outcome == "true"  # the verdict itself is never edited
    second = verdict_override(
        claim=claim, editor=editor, to_outcome="true", reason="Confirmed after all"
    )
    assert second.from_outcome == "false"
    claim.refresh_from_db()
    assert claim.outcome == "true" and not claim.overridden
    assert Override.objects.filter(verdict=verdict).count() == 2
    assert claim.events.filter(kind=EventKind.OVERRIDE).count() == 2


@pytest.mark.parametrize(
    ("outcome", "reason", "field"), [("maybe", "r", "outcome"), ("false", "  ", "reason")]
)
def test_a_bad_override_changes_nothing(editor: Any, outcome: str, reason: str, field: str) -> None:
    verdict = VerdictFactory.create()
    with pytest.raises(ClaimError) as caught:
        verdict_override(claim=verdict.claim, editor=editor, to_outcome=outcome, reason=reason)
    assert caught.value.field == field
    assert Override.objects.count() == 0


def test_an_override_to_the_outcome_the_claim_already_has_is_refused(editor: Any) -> None:
    verdict = VerdictFactory.create(outcome=Outcome.FALSE, claim__outcome=Outcome.FALSE)
    with pytest.raises(ClaimError) as caught:
        verdict_override(claim=verdict.claim, editor=editor, to_outcome="false", reason="Agree")
    assert caught.value.field == "outcome"
    assert "already False" in caught.value.message
    assert Override.objects.count() == 0
    verdict_override(claim=verdict.claim, editor=editor, to_outcome="invalid", reason="Unclear")
    with pytest.raises(ClaimError):
        verdict_override(claim=verdict.claim, editor=editor, to_outcome="invalid", reason="Again")
    assert Override.objects.count() == 1


def test_a_claim_without_a_verdict_cannot_be_overridden(editor: Any) -> None:
    claim, _ = claim_submit(text="Still running")
    with pytest.raises(ClaimError) as caught:
        verdict_override(claim=claim, editor=editor, to_outcome="true", reason="r")
    assert caught.value.field == "status"


def test_a_rerun_keeps_the_old_verdict_and_starts_after_its_attempts(editor: Any) -> None:
    from tests.factories import SearchRunFactory

    verdict = VerdictFactory.create()
    claim = verdict.claim
    SearchRunFactory.create(claim=claim, attempt=1)
    SearchRunFactory.create(claim=claim, attempt=2)
    claim = claim_rerun(claim=claim, user=editor)
    assert claim.status == ClaimStatus.QUEUED and claim.run_number == 2
    assert claim.attempt_offset == 2 and claim.outcome == ""
    assert claim.verdicts.count() == 1
    with pytest.raises(ClaimError):
        claim_rerun(claim=claim, user=editor)
