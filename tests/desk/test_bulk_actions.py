"""Bulk actions on the queue: mark reviewed or re-run the ticked claims, with counts."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from claims.models import Claim, ClaimStatus, EventKind, PipelineEvent
from decisions.models import Override
from tests.factories import ClaimFactory, DecidedClaimFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def _decided(n: int) -> list[Any]:
    claims = []
    for _ in range(n):
        claim: Any = DecidedClaimFactory()
        VerdictFactory(claim=claim)
        claims.append(claim)
    return claims


def test_the_queue_offers_the_bulk_actions_with_a_counted_confirmation(
    editor_client: Client,
) -> None:
    claim = _decided(1)[0]
    page = editor_client.get(reverse("home")).content.decode()
    assert f'<input type="checkbox" name="ids" value="{claim.pk}"' in page
    assert 'data-confirm="Mark {n} claim{s} reviewed? Their verdicts stand."' in page
    assert 'data-confirm="Re-run {n} claim{s}? Their verdicts stay in the history."' in page


def test_marking_ticked_claims_reviewed_counts_what_was_done_and_skipped(
    editor_client: Client,
) -> None:
    first, second = _decided(2)
    running: Any = ClaimFactory(status=ClaimStatus.RUNNING)
    response = editor_client.post(
        reverse("claims_bulk"),
        {"action": "review", "ids": [first.pk, second.pk, running.pk], "next": "/?outcome=true"},
        follow=True,
    )
    assert response.redirect_chain[0][0] == "/?outcome=true"
    assert "2 claims marked reviewed; 1 skipped (not decided yet, or reviewed already)." in (
        response.content.decode()
    )
    assert Claim.objects.filter(reviewed_at__isnull=False).count() == 2


def test_re_running_ticked_claims_queues_each_once(editor_client: Client) -> None:
    first, second = _decided(2)
    Claim.objects.filter(pk=second.pk).update(reviewed_at=timezone.now())
    response = editor_client.post(
        reverse("claims_bulk"), {"action": "rerun", "ids": [first.pk, second.pk]}, follow=True
    )
    assert "2 claims queued again." in response.content.decode()
    assert set(Claim.objects.values_list("run_number", flat=True)) == {2}
    again = editor_client.post(
        reverse("claims_bulk"), {"action": "rerun", "ids": [first.pk]}, follow=True
    )
    assert "0 claims queued again; 1 skipped (being checked already)." in again.content.decode()


def test_nothing_ticked_or_a_foreign_next_changes_nothing(editor_client: Client) -> None:
    claim = _decided(1)[0]
    response = editor_client.post(reverse("claims_bulk"), {"action": "review"}, follow=True)
    assert "Tick at least one claim first." in response.content.decode()
    response = editor_client.post(
        reverse("claims_bulk"),
        {"action": "review", "ids": [claim.pk], "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("home")


def test_bulk_actions_need_an_editor(outsider_client: Client) -> None:
    claim = _decided(1)[0]
    response = outsider_client.post(reverse("claims_bulk"), {"action": "review", "ids": [claim.pk]})
    assert response.status_code == 403
    assert Claim.objects.get(pk=claim.pk).reviewed_at is None


def test_overriding_ticked_claims_writes_each_its_own_override_and_skips_the_rest(
    editor_client: Client, editor: Any
) -> None:
    first, second, already = _decided(3)
    Claim.objects.filter(pk=already.pk).update(outcome="false")
    queued: Any = ClaimFactory()
    response = editor_client.post(
        reverse("claims_bulk"),
        {
            "action": "override",
            "outcome": "false",
            "reason": "  The register shows no such decision ",
            "ids": [first.pk, second.pk, already.pk, queued.pk],
        },
        follow=True,
    )
    assert "2 claims overridden to False; 2 skipped (no verdict yet, or False already)." in (
        response.content.decode()
    )
    overrides = list(Override.objects.order_by("verdict__claim_id"))
    assert [o.verdict.claim_id for o in overrides] == [first.pk, second.pk]
    assert {(o.editor_id, o.reason, o.to_outcome) for o in overrides} == {
        (editor.pk, "The register shows no such decision", "false")
    }
    assert PipelineEvent.objects.filter(kind=EventKind.OVERRIDE).count() == 2


@pytest.mark.parametrize(
    ("outcome", "reason", "problem"),
    [
        ("false", "   ", "say why the verdict is changed"),
        ("", "Retracted", "outcome must be one of true, false, invalid"),
        ("maybe", "Retracted", "outcome must be one of true, false, invalid"),
    ],
)
def test_a_bulk_override_with_bad_input_changes_nothing(
    editor_client: Client, outcome: str, reason: str, problem: str
) -> None:
    claims = _decided(2)
    response = editor_client.post(
        reverse("claims_bulk"),
        {"action": "override", "outcome": outcome, "reason": reason, "ids": [c.pk for c in claims]},
        follow=True,
    )
    assert f"Nothing was overridden: {problem}." in response.content.decode()
    assert not Override.objects.exists()
    assert set(Claim.objects.values_list("outcome", flat=True)) == {"true"}


def test_an_outsider_cannot_override_in_bulk(outsider_client: Client) -> None:
    claim = _decided(1)[0]
    response = outsider_client.post(
        reverse("claims_bulk"),
        {"action": "override", "outcome": "false", "reason": "No", "ids": [claim.pk]},
    )
    assert response.status_code == 403
    assert not Override.objects.exists()
