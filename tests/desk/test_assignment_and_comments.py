"""Taking a claim for review (shown in the queue, filter "mine", released when reviewed) and the
discussion thread on each claim (escaped, kept in the history)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import Claim, EventKind, PipelineEvent
from decisions.models import COMMENT_MAX_CHARS, Comment
from tests.factories import DecidedClaimFactory, UserFactory, VerdictFactory

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def claim() -> Any:
    made: Any = DecidedClaimFactory(text="The tram line opened in 2024")
    VerdictFactory(claim=made)
    return made


@pytest.fixture
def colleague_client() -> Client:
    client = Client()
    colleague: Any = UserFactory(username="cleo", groups=["editors"])
    client.force_login(colleague)
    return client


def test_an_editor_takes_a_claim_and_the_queue_shows_it(
    editor_client: Client, editor: Any, claim: Any
) -> None:
    other: Any = DecidedClaimFactory(text="The ferry was cancelled in 2023")
    response = editor_client.post(reverse("claim_take", args=[claim.pk]), headers=HX)
    assert response.status_code == 200
    assert "Taken by <strong>you</strong>" in response.content.decode()
    claim.refresh_from_db()
    assert claim.assigned_to == editor and claim.assigned_at is not None
    assert PipelineEvent.objects.filter(
        claim=claim, kind=EventKind.REVIEW, message="edna took the claim"
    ).exists()

    queue = editor_client.get(reverse("home")).content.decode()
    assert "taken by you" in queue
    mine = editor_client.get(reverse("home"), {"mine": "on"}).content.decode()
    assert "The tram line opened in 2024" in mine and other.text not in mine


def test_a_claim_taken_by_another_editor_stays_theirs(
    editor_client: Client, colleague_client: Client, claim: Any
) -> None:
    editor_client.post(reverse("claim_take", args=[claim.pk]))
    response = colleague_client.post(reverse("claim_take", args=[claim.pk]), headers=HX)
    assert response.status_code == 409
    assert "edna has taken this claim already" in response.content.decode()
    assert colleague_client.post(reverse("claim_release", args=[claim.pk])).status_code == 302
    claim.refresh_from_db()
    assert claim.assigned_to is not None and claim.assigned_to.username == "edna"
    queue = colleague_client.get(reverse("home")).content.decode()
    assert "taken by edna" in queue


def test_the_holder_or_an_admin_releases_a_claim(
    editor_client: Client, admin_client_: Client, claim: Any
) -> None:
    editor_client.post(reverse("claim_take", args=[claim.pk]))
    admin_client_.post(reverse("claim_release", args=[claim.pk]))
    claim.refresh_from_db()
    assert claim.assigned_to is None


def test_reviewing_a_claim_releases_it(editor_client: Client, claim: Any) -> None:
    editor_client.post(reverse("claim_take", args=[claim.pk]))
    editor_client.post(reverse("claim_review", args=[claim.pk]))
    claim.refresh_from_db()
    assert claim.reviewed_at is not None and claim.assigned_to is None


def test_a_comment_joins_the_thread_escaped_and_in_the_history(
    editor_client: Client, claim: Any
) -> None:
    response = editor_client.post(
        reverse("claim_comment", args=[claim.pk]),
        {"text": "Checked the register.\n<script>alert(1)</script> & the wire"},
        headers=HX,
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "Checked the register.<br>&lt;script&gt;alert(1)&lt;/script&gt; &amp; the wire" in body
    assert "<script>alert" not in body
    comment = Comment.objects.get()
    assert comment.author.username == "edna" and comment.claim == claim
    assert PipelineEvent.objects.filter(
        claim=claim, kind=EventKind.REVIEW, message="edna commented"
    ).exists()
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    assert f'id="comment-{comment.pk}"' in page and "<strong>edna</strong>" in page


@pytest.mark.parametrize("text", ["   ", "x" * (COMMENT_MAX_CHARS + 1)])
def test_an_empty_or_overlong_comment_is_refused(
    editor_client: Client, claim: Any, text: str
) -> None:
    response = editor_client.post(reverse("claim_comment", args=[claim.pk]), {"text": text})
    assert response.status_code == 422
    assert Comment.objects.count() == 0


def test_taking_releasing_and_commenting_need_an_editor(
    outsider_client: Client, claim: Any
) -> None:
    for name, data in (
        ("claim_take", {}),
        ("claim_release", {}),
        ("claim_comment", {"text": "hello"}),
    ):
        assert outsider_client.post(reverse(name, args=[claim.pk]), data).status_code == 403
    assert Comment.objects.count() == 0
    assert Claim.objects.get(pk=claim.pk).assigned_to is None
