"""Review, override and re-run from the claim page: an override needs a reason and a new outcome,
is kept in the history and leads the verdict card; a re-run keeps the old verdict. Permissions,
escaping and query counts are in test_views_guards.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import ClaimStatus, Outcome
from decisions.models import Override
from tests.desk.desk import HX, text
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


def test_after_an_override_the_verdict_card_leads_with_the_editors_outcome_and_reason(
    editor_client: Client,
) -> None:
    verdict: Any = VerdictFactory(
        outcome=Outcome.FALSE,
        claim__outcome=Outcome.FALSE,
        claim__fact_check_score=0.9,
        claim__fact_check_tier="high",
        proof_markdown="**Claim:** The ferry runs.\n\n**Verdict: False**, because enough agree.",
    )
    editor_client.post(
        reverse("claim_override", args=[verdict.claim.pk]),
        {"outcome": "invalid", "reason": "The sources describe another ferry."},
        headers=HX,
    )

    page = text(editor_client.get(reverse("claim_detail", args=[verdict.claim.pk])))

    card = page[page.index('id="verdict"') : page.index('id="review"')]
    editor, proposed = card.split("ClaimCheck proposed</h3>")
    assert 'badge-invalid badge-xl">Invalid</span>' in editor
    assert "<strong>edna</strong> changed it from ClaimCheck's False" in editor
    assert "The sources describe another ferry." in editor
    assert "confidence" not in editor
    # What ClaimCheck proposed: its outcome, confidence, reason line and proof, its own words.
    assert 'badge-false">False</span>' in proposed and "High confidence" in proposed
    reason = proposed[proposed.index('id="verdict-reason"') :]
    assert "Sufficient evidence" in reason[: reason.index("</p>")]
    proof = proposed[proposed.index('class="proof"') :]
    assert "Pipeline verdict: False" in proof and "Editor verdict" not in proof
    assert "<strong>Verdict: False</strong>" not in page


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


def _card(editor_client: Client, claim: Any) -> str:
    page = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))
    return page[page.index('id="verdict"') : page.index('id="review"')]


def test_a_kept_verdict_is_claimchecks_own_with_the_editor_who_kept_it(
    editor_client: Client,
) -> None:
    verdict: Any = VerdictFactory(
        outcome=Outcome.TRUE, claim__fact_check_score=0.9, claim__fact_check_tier="high"
    )
    editor_client.post(reverse("claim_review", args=[verdict.claim.pk]), headers=HX)

    card = _card(editor_client, verdict.claim)

    outcome = card[card.index('class="verdict-outcome"') :]
    outcome = outcome[: outcome.index("</p>")]
    assert 'badge-true badge-xl">True</span>' in outcome
    assert '<span class="tag tag-kept" id="verdict-kept">kept by edna</span>' in outcome
    assert "High confidence" in card
    assert "ClaimCheck proposed" not in card and 'id="verdict-editor"' not in card


def test_a_verdict_no_editor_has_touched_shows_as_it_always_did(editor_client: Client) -> None:
    verdict: Any = VerdictFactory(
        outcome=Outcome.TRUE, claim__fact_check_score=0.9, claim__fact_check_tier="high"
    )

    card = _card(editor_client, verdict.claim)

    assert 'badge-true badge-xl">True</span>' in card and "High confidence" in card
    assert card.index('id="verdict-summary"') < card.index('id="verdict-confidence"')
    assert "kept by" not in card and "ClaimCheck proposed" not in card
    assert 'id="verdict-editor"' not in card


def test_an_override_through_the_api_leads_the_card_too(editor_client: Client, api: Client) -> None:
    verdict: Any = VerdictFactory(
        outcome=Outcome.TRUE, claim__fact_check_score=0.9, claim__fact_check_tier="high"
    )
    api.post(
        f"/api/claims/{verdict.claim.pk}/override",
        data=json.dumps({"outcome": "false", "reason": "The second source retracted"}),
        content_type="application/json",
    )

    editor, proposed = _card(editor_client, verdict.claim).split("ClaimCheck proposed</h3>")

    assert 'badge-false badge-xl">False</span>' in editor and "confidence" not in editor
    assert "The second source retracted" in editor
    assert 'badge-true">True</span>' in proposed and "High confidence" in proposed


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
