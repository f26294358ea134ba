"""Whose outcome a claim shows: ClaimCheck's proposal, an editor's outcome over it (who, when,
why), or the proposal kept by an editor; and the queue's and API's reads of ClaimCheck's outcome
for overridden claims."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.models import Claim, Outcome
from decisions.services import claim_mark_reviewed, verdict_override
from desk import selectors
from desk.selectors.verdict_card import proposed_proof
from tests.factories import ClaimFactory, OverrideFactory, UserFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def _card(claim: Any) -> selectors.VerdictCard:
    claim.refresh_from_db()
    card = selectors.claim_page(claim=claim).card
    assert card is not None
    return card


def test_a_verdict_nobody_reviewed_is_claimchecks_alone() -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    assert _card(verdict.claim) == selectors.VerdictCard(proposed=Outcome.TRUE)


def test_an_override_is_the_editors_outcome_with_who_when_and_why(editor: Any) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    override = verdict_override(
        claim=verdict.claim, editor=editor, to_outcome=Outcome.FALSE, reason="It was retracted."
    )

    card = _card(verdict.claim)

    assert card.proposed == Outcome.TRUE and card.proposed_label == "True"
    assert card.override == selectors.EditorWord(
        outcome=Outcome.FALSE,
        editor="edna",
        at=override.at,
        reason="It was retracted.",
        replaced=Outcome.TRUE,
    )
    assert card.override.outcome_label == "False"
    assert card.kept is None


def test_the_latest_override_is_the_one_shown(editor: Any) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    verdict_override(claim=verdict.claim, editor=editor, to_outcome=Outcome.FALSE, reason="One")
    other: Any = UserFactory(username="otto", groups=["editors"])
    verdict_override(claim=verdict.claim, editor=other, to_outcome=Outcome.INVALID, reason="Two")

    override = _card(verdict.claim).override

    assert override is not None
    assert (override.outcome, override.editor, override.reason) == (Outcome.INVALID, "otto", "Two")


def test_a_verdict_kept_names_the_editor_who_kept_it(editor: Any) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    claim_mark_reviewed(claim=verdict.claim, editor=editor)

    card = _card(verdict.claim)

    assert card.override is None and card.kept is not None
    assert (card.kept.outcome, card.kept.editor, card.kept.reason) == (Outcome.TRUE, "edna", "")
    assert card.kept.at is not None


def test_an_override_back_to_claimchecks_outcome_keeps_it_with_the_reason(editor: Any) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    verdict_override(claim=verdict.claim, editor=editor, to_outcome=Outcome.FALSE, reason="No")
    verdict_override(
        claim=verdict.claim, editor=editor, to_outcome=Outcome.TRUE, reason="Second look: yes"
    )

    card = _card(verdict.claim)

    assert card.override is None and card.kept is not None
    assert (card.kept.editor, card.kept.reason) == ("edna", "Second look: yes")


def test_an_override_of_an_earlier_run_is_not_the_current_verdicts() -> None:
    first: Any = VerdictFactory(outcome=Outcome.TRUE)
    OverrideFactory(verdict=first, to_outcome=Outcome.FALSE)
    claim = first.claim
    Claim.objects.filter(pk=claim.pk).update(run_number=2, outcome=Outcome.INVALID)
    VerdictFactory(claim=claim, run_number=2, outcome=Outcome.INVALID)

    claim.refresh_from_db()
    history = selectors.claim_history(claim=claim)

    assert history.card == selectors.VerdictCard(proposed=Outcome.INVALID)
    assert _card(claim) == selectors.VerdictCard(proposed=Outcome.INVALID)


def test_the_proof_under_the_proposal_never_reads_as_the_verdict_once_overridden() -> None:
    proof = "**Claim:** x\n\n**Verdict: True**, because two agree."
    proposal = selectors.VerdictCard(proposed=Outcome.TRUE)
    overridden = selectors.VerdictCard(
        proposed=Outcome.TRUE,
        override=selectors.EditorWord(outcome=Outcome.FALSE, editor="edna", at=None, reason="r"),
    )

    assert proposed_proof(markdown_text=proof, card=proposal) == proof
    assert proposed_proof(markdown_text=proof, card=overridden) == (
        "**Claim:** x\n\nPipeline verdict: True, because two agree."
    )


def test_the_queue_reads_claimchecks_outcome_of_overridden_claims_in_one_query(
    editor: Any,
) -> None:
    plain: Any = VerdictFactory(outcome=Outcome.TRUE).claim
    changed: Any = VerdictFactory(outcome=Outcome.TRUE).claim
    verdict_override(claim=changed, editor=editor, to_outcome=Outcome.FALSE, reason="Retracted")
    claims = list(Claim.objects.filter(pk__in=[plain.pk, changed.pk]))

    with CaptureQueriesContext(connection) as queries:
        proposed = selectors.proposed_outcomes(claims=claims)
    assert proposed == {changed.pk: Outcome.TRUE} and len(queries) == 1

    with CaptureQueriesContext(connection) as none:
        assert selectors.proposed_outcomes(claims=[c for c in claims if c.pk == plain.pk]) == {}
    assert len(none) == 0


def test_a_claim_without_a_verdict_has_no_card() -> None:
    claim: Any = ClaimFactory()
    assert selectors.claim_page(claim=claim).card is None
    assert selectors.claim_history(claim=claim).card is None
