"""Submitting claims from the desk: one claim with its timeframe and channel, or a pasted batch,
and every refusal said on the form with nothing saved. Permissions, escaping and query counts are
in test_views_guards.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import Claim, ClaimStatus
from tests.desk.desk import text

pytestmark = pytest.mark.django_db


def test_one_claim_with_a_timeframe_and_channel_is_queued_and_opens_its_page(
    editor_client: Client, editor: Any
) -> None:
    response = editor_client.post(
        reverse("claim_new"),
        {
            "text": "The harbour bridge opened to traffic",
            "timeframe_start": "2024-07-01",
            "timeframe_end": "2024-07-31",
            "source_channel": "@desk",
        },
    )
    claim = Claim.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("claim_detail", args=[claim.pk])
    assert claim.status == ClaimStatus.QUEUED
    assert claim.source_channel == "@desk" and claim.created_by == editor
    assert claim.timeframe_start is not None and claim.timeframe_end is not None
    assert claim.timeframe_start.date().isoformat() == "2024-07-01"
    assert claim.timeframe_end.date().isoformat() == "2024-07-31"


def test_an_inverted_timeframe_is_refused_on_its_field_and_nothing_is_saved(
    editor_client: Client,
) -> None:
    response = editor_client.post(
        reverse("claim_new"),
        {"text": "It happened", "timeframe_start": "2024-08-01", "timeframe_end": "2024-07-01"},
    )
    assert response.status_code == 422
    assert "the timeframe ends before it starts" in text(response)
    assert Claim.objects.count() == 0


def test_an_empty_claim_is_refused(editor_client: Client) -> None:
    response = editor_client.post(reverse("claim_new"), {"text": "   "})
    assert response.status_code == 422
    assert Claim.objects.count() == 0


def test_a_claim_with_no_searchable_words_is_refused_at_the_form(editor_client: Client) -> None:
    response = editor_client.post(reverse("claim_new"), {"text": "x"})
    assert response.status_code == 422
    assert "the claim has no words to search for" in text(response)
    assert Claim.objects.count() == 0


def test_a_batch_line_with_no_searchable_words_is_reported(editor_client: Client) -> None:
    response = editor_client.post(reverse("claim_new_batch"), {"lines": "Fine claim here\n?!"})
    assert response.status_code == 422
    assert "Line 2" in text(response) and "no words to search for" in text(response)
    assert Claim.objects.count() == 0


def test_a_pasted_batch_queues_one_claim_per_line(editor_client: Client) -> None:
    response = editor_client.post(
        reverse("claim_new_batch"),
        {"lines": "First claim here\n\nSecond claim here\n", "source_channel": "@feed"},
        follow=True,
    )
    assert set(Claim.objects.values_list("text", "source_channel")) == {
        ("First claim here", "@feed"),
        ("Second claim here", "@feed"),
    }
    assert "2 claims queued." in text(response)


def test_a_batch_with_a_bad_line_reports_that_line_and_saves_nothing(editor_client: Client) -> None:
    long_line = "x" * 2001
    response = editor_client.post(
        reverse("claim_new_batch"), {"lines": f"Fine claim\n{long_line}\nAnother fine claim"}
    )
    assert response.status_code == 422
    body = text(response)
    assert "Nothing was saved: 1 line cannot be checked." in body
    assert "Line 2" in body and "at most 2000" in body
    assert Claim.objects.count() == 0
