"""The claim page offers a confirmed verdict's ClaimReview to copy, shown as text in the page,
and offers none for a claim no editor has confirmed. The browser's side (the copy button) is in
tests/e2e/test_claimreview.py."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import Claim, Outcome
from decisions.services import claim_mark_reviewed
from tests.desk.desk import HX, text
from tests.factories import DecidedClaimFactory, UserFactory, VerdictFactory

pytestmark = pytest.mark.django_db

SCRIPT = "</pre><script>alert(1)</script>"
SHOWN = re.compile(r'<pre class="jsonld" id="claimreview-text">(?P<json>.*?)</pre>', re.DOTALL)


def decided(text: str = "Veltria Motors opened its battery plant in Karsfeld") -> Claim:
    claim = DecidedClaimFactory.create(text=text, outcome=Outcome.TRUE)
    VerdictFactory.create(claim=claim, run_number=claim.run_number, outcome=Outcome.TRUE)
    return claim


def shown_json(body: str) -> dict[str, Any]:
    found = SHOWN.search(body)
    assert found is not None, "no ClaimReview on the page"
    document: dict[str, Any] = json.loads(html.unescape(found["json"]))
    return document


def test_a_kept_verdicts_page_shows_its_claimreview_with_the_copy_button(
    editor_client: Client, editor: Any
) -> None:
    claim = decided()
    claim_mark_reviewed(claim=claim, editor=editor)

    body = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    assert 'id="claimreview-copy" data-copy="claimreview-text"' in body
    document = shown_json(body)
    assert document["@type"] == "ClaimReview"
    assert document["claimReviewed"] == claim.text
    assert document["reviewRating"]["alternateName"] == "True"
    assert document["url"] == f"http://testserver/claims/{claim.pk}/"


def test_keeping_the_verdict_brings_the_claimreview_into_the_live_part(
    editor_client: Client,
) -> None:
    claim = decided()
    assert "claimreview" not in text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    response = editor_client.post(reverse("claim_review", args=[claim.pk]), headers=HX)

    assert response.status_code == 200
    assert shown_json(text(response))["reviewRating"]["alternateName"] == "True"


def test_an_unconfirmed_claims_page_offers_no_claimreview(editor_client: Client) -> None:
    claim = decided()

    body = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    assert "Copy ClaimReview" not in body and "claimreview" not in body


def test_a_viewer_sees_the_claimreview_too(editor: Any) -> None:
    claim = decided()
    claim_mark_reviewed(claim=claim, editor=editor)
    viewer = Client()
    viewer.force_login(UserFactory.create(username="vera", groups=["viewers"]))

    body = text(viewer.get(reverse("claim_detail", args=[claim.pk])))

    assert shown_json(body)["claimReviewed"] == claim.text


def test_script_in_the_claim_stays_text_inside_the_claimreview(
    editor_client: Client, editor: Any
) -> None:
    claim = decided(text=f"The plant opened {SCRIPT}")
    claim_mark_reviewed(claim=claim, editor=editor)

    body = text(editor_client.get(reverse("claim_detail", args=[claim.pk])))

    assert "<script>alert(1)" not in body
    assert shown_json(body)["claimReviewed"] == claim.text
