"""The weighed proposal in a browser: under the verdict's summary, the three probabilities, what
ClaimCheck proposes or where it leans, and the witnesses that moved it most, as stored with the
verdict; the proof, once opened, says the same."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim
from decisions.models import Verdict
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    "start", ["The Union Medicines Agency authorised", "The Union Parliament approved"]
)
def test_the_claim_page_shows_the_weighed_proposal_and_what_moved_it(
    live_server: Any, page: Any, editor: Any, screenshot: Any, start: str
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claim = Claim.objects.get(text__startswith=start)
    verdict = Verdict.objects.filter(claim=claim).latest("run_number")
    proposal = verdict.proposal
    assert proposal is not None
    p = proposal["probabilities"]
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")

    # One confidence shows; the outcome model's chances wait under "How this was weighed".
    weighed = page.locator("#verdict-weighed")
    expect(weighed).to_be_hidden()
    page.locator("#verdict-weighing > summary").click()
    expect(weighed).to_be_visible()
    expect(weighed).to_contain_text(proposal["text"])
    expect(weighed).to_contain_text(
        f"chance of each outcome: True {p['true']:.2f} · False {p['false']:.2f} · "
        f"not decidable {p['invalid']:.2f}"
    )
    movers = page.locator("#verdict-movers li")
    expect(movers).to_have_count(len(proposal["movers"]))
    for number, mover in enumerate(proposal["movers"]):
        expect(movers.nth(number)).to_have_text(mover["text"])
    screenshot(f"weighed-{claim.pk}")

    expect(page.locator("#verdict-weighing .proof")).to_contain_text(
        f"Weighed together: {proposal['text']}"
    )
