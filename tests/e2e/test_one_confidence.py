"""One confidence: a decided claim's card says its outcome and one confidence, in words and one
figure, the same figure the queue and the API give; the outcome model's chances and each row's
chance of being right wait under "How this was weighed", labelled apart."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import expect

from claims.models import Claim
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIGURE = re.compile(r"\b[01]\.\d\d\b")


def test_a_decided_claim_shows_one_confidence_everywhere(
    live_server: Any, page: Any, editor: Any, api: Client, screenshot: Any
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claims = Claim.objects.filter(fact_check_score__isnull=False, overridden=False)
    claim = claims.order_by("pk").first()
    assert claim is not None and claim.fact_check_score is not None
    figure = f"{claim.fact_check_score:.2f}"
    sign_in(page, live_server, editor)

    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    card = page.locator("#verdict")
    shown = card.inner_text()
    assert FIGURE.findall(shown) == [figure], shown
    expect(card.locator("#verdict-confidence")).to_contain_text(
        f"{claim.fact_check_tier.capitalize()} confidence {figure}"
    )
    screenshot("one-confidence")

    page.locator("#verdict-weighing > summary").click()
    if page.locator("#verdict-weighed").count():
        expect(page.locator("#verdict-weighed")).to_contain_text("chance of each outcome")

    page.goto(f"{live_server.url}/")
    row = page.locator("#claim-results tbody tr", has=page.locator(f"#pick-{claim.pk}"))
    expect(row.locator(".conf-figure")).to_have_text(figure)

    body = api.get(f"/api/claims/{claim.pk}").json()
    assert f"{body['fact_check']['score']:.2f}" == figure
