"""Next to review: one step at a time through the decided claims nobody has reviewed yet."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from claims.models import ClaimStatus
from tests.factories import ClaimFactory, DecidedClaimFactory, VerdictFactory

pytestmark = pytest.mark.django_db


def _claims() -> list[Any]:
    now = timezone.now()
    first = DecidedClaimFactory(created_at=now - timedelta(hours=3))
    DecidedClaimFactory(created_at=now - timedelta(hours=2), reviewed_at=now)  # done already
    ClaimFactory(created_at=now - timedelta(hours=2), status=ClaimStatus.RUNNING)  # no verdict
    second = DecidedClaimFactory(created_at=now - timedelta(hours=1))
    third = DecidedClaimFactory(created_at=now)
    return [first, second, third]


def _next(client: Client, **params: int) -> str:
    response = client.get(reverse("claim_review_next"), params)
    assert response.status_code == 302
    return str(response["Location"])


def test_next_walks_the_unreviewed_decided_claims_oldest_first_and_wraps(
    editor_client: Client,
) -> None:
    first, second, third = _claims()
    detail = lambda claim: reverse("claim_detail", args=[claim.pk])  # noqa: E731
    assert _next(editor_client) == detail(first)
    assert _next(editor_client, after=first.pk) == detail(second)
    assert _next(editor_client, after=second.pk) == detail(third)
    assert _next(editor_client, after=third.pk) == detail(first)
    assert _next(editor_client, before=second.pk) == detail(first)
    assert _next(editor_client, before=first.pk) == detail(third)


def test_a_claim_reviewed_meanwhile_is_skipped_and_its_place_kept(editor_client: Client) -> None:
    first, second, third = _claims()
    type(first).objects.filter(pk=second.pk).update(reviewed_at=timezone.now())
    # The claim just reviewed is left out; the walk goes on from where it stood.
    assert _next(editor_client, after=second.pk) == reverse("claim_detail", args=[third.pk])


def test_with_nothing_to_review_it_says_so_on_the_queue(editor_client: Client) -> None:
    DecidedClaimFactory(reviewed_at=timezone.now())
    response = editor_client.get(reverse("claim_review_next"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Nothing left to review" in response.content.decode()


def test_the_claim_page_offers_the_review_keys(editor_client: Client) -> None:
    first, *_ = _claims()
    VerdictFactory(claim=first)
    page = editor_client.get(reverse("claim_detail", args=[first.pk])).content.decode()
    assert f'href="{reverse("claim_review_next")}?after={first.pk}" data-key="j"' in page
    assert f'href="{reverse("claim_review_next")}?before={first.pk}" data-key="k"' in page
    assert 'data-key="r"' in page and 'data-key="o"' in page and 'data-key="u"' in page
    assert '<dialog id="shortcuts"' in page


def test_next_to_review_needs_an_editor(outsider_client: Client) -> None:
    assert outsider_client.get(reverse("claim_review_next")).status_code == 403
