"""A claim checked with `manage.py verify` is the command line's: marked as such, left out of
the editors' queue and of the review order unless an editor asks for it."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from claims.models import Claim, ClaimOrigin, ClaimStatus
from demo.loader import demo_load
from desk.selectors import claim_queue, needs_review_count, queue_state, review_neighbour
from tests.factories import DecidedClaimFactory

pytestmark = pytest.mark.django_db

CLAIM = "Veltria Motors opened its battery cell plant in Karsfeld."


@pytest.fixture
def cli_claim() -> Claim:
    demo_load()
    out = io.StringIO()
    call_command("verify", CLAIM, "--start", "2024-06-01", "--end", "2024-06-30", stdout=out)
    assert "marked as checked from the command line" in out.getvalue()
    return Claim.objects.get(text=CLAIM)


def test_verify_marks_its_claim_as_the_command_lines(cli_claim: Claim) -> None:
    assert cli_claim.origin == ClaimOrigin.CLI
    assert cli_claim.status == ClaimStatus.DECIDED and cli_claim.reviewed_at is None


def test_the_editors_queue_leaves_it_out_unless_asked_for(
    cli_claim: Claim, editor_client: Client
) -> None:
    desk: Any = DecidedClaimFactory(text="The harbour reopened in 2024")
    page = editor_client.get(reverse("home")).content.decode()
    assert desk.text in page and CLAIM not in page
    asked = editor_client.get(reverse("home"), {"cli": "on"}).content.decode()
    assert CLAIM in asked and desk.text in asked
    assert "command line</span>" in asked
    # The API's list, for machines, keeps every claim.
    assert set(claim_queue().values_list("pk", flat=True)) >= {cli_claim.pk, desk.pk}


def test_it_never_waits_for_review_nor_stirs_the_queue(cli_claim: Claim) -> None:
    assert needs_review_count() == 0
    assert review_neighbour(claim_id=None) is None
    desk_before, all_before = queue_state(cli=False), queue_state(cli=True)
    Claim.objects.filter(pk=cli_claim.pk).update(status=ClaimStatus.RUNNING)
    assert queue_state(cli=False) == desk_before
    assert queue_state(cli=True) != all_before


def test_the_claim_page_says_it_came_from_the_command_line(
    cli_claim: Claim, editor_client: Client
) -> None:
    page = editor_client.get(reverse("claim_detail", args=[cli_claim.pk])).content.decode()
    assert "command line</span>" in page


def test_a_claim_from_the_desk_is_the_desks(editor_client: Client) -> None:
    response = editor_client.post(reverse("claim_new"), {"text": "The bridge reopened in 2023"})
    assert response.status_code in (200, 302)
    claim = Claim.objects.get(text="The bridge reopened in 2023")
    assert claim.origin == ClaimOrigin.DESK
    assert claim.pk in claim_queue(cli=False).values_list("pk", flat=True)
