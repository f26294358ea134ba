"""Review, override and re-run from the claim page: an override needs a reason and a new outcome,
is kept in the history and leads the verdict card; a re-run keeps the old verdict. Permissions,
escaping and query counts are in test_views_guards.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import ClaimStatus, Outcome
from decisions.models import Override
from tests.decisions.desk import HX, text
from tests.factories import ClaimFactory, OverrideFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def test_an_override_with_a_reason_changes_the_outcome_and_is_kept_in_the_history(
    editor_client: Client, editor: Any
) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    claim = verdict.claim

    response = editor_client.post(
        reverse("claim_override", args=[claim.pk]),
        {"outcome": "false", "reason": "The ministry retracted it."},
        headers=HX,
    )

    assert response.status_code == 200
    claim.refresh_from_db()
    assert claim.outcome == Outcome.FALSE and claim.overridden and claim.reviewed_at
    override = Override.objects.get()
    assert override.editor == editor and override.reason == "The ministry retracted it."
    body = text(response)
    assert body.lstrip().startswith('<div id="claim-live"')
    assert "The ministry retracted it." in body and "edna" in body


def test_after_an_override_the_verdict_card_and_proof_lead_with_the_editors_outcome(
    editor_client: Client,
) -> None:
    verdict: Any = VerdictFactory(
        outcome=Outcome.FALSE,
        claim__outcome=Outcome.FALSE,
        proof_markdown="**Claim:** The ferry runs.\n\n**Verdict: False**, because enough agree.",
    )
    editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "invalid", "reason": "The sources describe another ferry."},
        headers=HX,
    )

    page = text(editor_client.get(reverse("claim_detail", args=[verdict.claim.pk])))

    card = page[page.index('id="verdict-reason"') :]
    card = card[: card.index("</p>")]
    assert "Editor verdict: Invalid" in card and "was False" in card
    proof = page[page.index('class="proof"') :]
    assert proof.index("Editor verdict: Invalid") < proof.index("Pipeline verdict: False")
    assert "<strong>Verdict: False</strong>" not in page
    assert "The sources describe another ferry." in proof


def test_an_override_to_the_same_outcome_is_refused_with_its_reason(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    response = editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "true", "reason": "Looks right."},
        headers=HX,
    )
    assert response.status_code == 422
    assert "already True" in text(response)
    assert Override.objects.count() == 0


def test_an_invalid_verdict_shows_where_its_evidence_leans(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(
        outcome=Outcome.INVALID,
        reason="insufficient",
        lean={
            "outcome": "false",
            "weight": 0.4,
            "sources": ["blog.example"],
            "text": "leans False: 0.4 from one other site (blog.example)",
        },
    )
    page = text(editor_client.get(reverse("claim_detail", args=[verdict.claim.pk])))
    hint = page[page.index('id="verdict-lean"') :]
    assert "leans False: 0.4 from one other site (blog.example)" in hint[: hint.index("</p>")]


def test_an_override_without_a_reason_is_refused_with_422(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    response = editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "false", "reason": " "},
        headers=HX,
    )
    assert response.status_code == 422
    assert "This field is required." in text(response)
    assert Override.objects.count() == 0


def test_an_override_without_htmx_redirects_back_with_a_message(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.TRUE)
    response = editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "invalid", "reason": "Dates do not match."},
        follow=True,
    )
    assert "Outcome changed." in text(response)
    assert response.redirect_chain[-1][0] == reverse("claim_detail", args=[verdict.claim.pk])


def test_a_claim_still_running_cannot_be_overridden(editor_client: Client) -> None:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    response = editor_client.post(
        reverse("claim_override", args=[claim.pk]), {"outcome": "false", "reason": "no"}
    )
    assert response.status_code == 422
    assert "no verdict to override yet" in text(response)


def test_keeping_a_verdict_marks_the_claim_reviewed(editor_client: Client) -> None:
    verdict: Any = VerdictFactory()
    response = editor_client.post(reverse("claim_review", args=[verdict.claim.pk]), headers=HX)
    assert response.status_code == 200
    verdict.claim.refresh_from_db()
    assert verdict.claim.reviewed_at is not None
    assert "Marked reviewed" in text(response)


def test_a_re_run_queues_a_fresh_run_and_keeps_the_old_verdict(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(outcome=Outcome.FALSE)
    OverrideFactory(verdict=verdict, from_outcome=Outcome.FALSE, to_outcome=Outcome.TRUE)
    claim = verdict.claim

    response = editor_client.post(reverse("claim_rerun", args=[claim.pk]), follow=True)

    claim.refresh_from_db()
    assert claim.status == ClaimStatus.QUEUED and claim.run_number == 2
    page = text(response)
    assert "Re-run queued" in page
    assert "Run 1 verdict" in page  # the old verdict, in the history
    assert "The second source retracted its report." in page  # and its override
    assert "Verdict pending" in page


def test_a_claim_being_checked_cannot_be_re_run(editor_client: Client) -> None:
    claim: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    response = editor_client.post(reverse("claim_rerun", args=[claim.pk]), follow=True)
    assert "already being checked" in text(response)
    claim.refresh_from_db()
    assert claim.run_number == 1
