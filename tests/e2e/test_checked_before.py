"""The desk's memory in a browser: an editor overrides a claim; a reworded restatement posted
through the API shows "Checked before" with the editor's verdict (and says ClaimCheck's own
proposal differs); a near miss, one direction word apart, does not."""

from __future__ import annotations

import io
import json
import urllib.request
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "The regulator's register lists the plant as opening in July, not June."
RESTATED = "Veltria Motors has opened a battery cell factory in Karsfeld."
NEAR_MISS = "Veltria Motors closed its battery cell plant in Karsfeld."


def _post(live_server: Any, token: str, text: str) -> int:
    request = urllib.request.Request(
        f"{live_server.url}/api/claims",
        data=json.dumps({"text": text}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 202
        return int(json.load(answer)["ids"][0])


def test_a_restatement_shows_the_editors_earlier_verdict_and_a_near_miss_does_not(
    live_server: Any, page: Any, editor: Any, api_token: str
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claim = Claim.objects.get(text__startswith="Veltria Motors opened")
    assert claim.outcome == "true"
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    expect(page.locator("#checked-before")).to_have_count(0)
    page.get_by_label("New outcome").select_option("false")
    page.get_by_label("Reason").fill(REASON)
    page.get_by_role("button", name="Override").click()
    expect(page.locator("#verdict-editor .badge-xl")).to_have_text("False")

    restated = _post(live_server, api_token, RESTATED)
    page.goto(f"{live_server.url}/claims/{restated}/")
    before = page.locator("#checked-before")
    expect(before.locator("h2")).to_have_text(
        f"Checked before: False, by {editor.username} on {_day(claim)}"
    )
    expect(before.locator("blockquote")).to_have_text(REASON)
    expect(before.get_by_role("link", name=f"Claim #{claim.pk}")).to_have_attribute(
        "href", f"/claims/{claim.pk}/"
    )
    # The engine ran too: its proposal stands beside the earlier answer, and they differ.
    expect(page.locator("#verdict")).to_be_visible()
    expect(before.locator("#checked-before-disagrees")).to_contain_text("ClaimCheck proposes True")

    near = _post(live_server, api_token, NEAR_MISS)
    page.goto(f"{live_server.url}/claims/{near}/")
    expect(page.locator(".claim-text")).to_have_text(NEAR_MISS)
    expect(page.locator("#checked-before")).to_have_count(0)


def _day(claim: Claim) -> str:
    claim.refresh_from_db()
    assert claim.reviewed_at is not None
    from django.utils import timezone

    return f"{timezone.localtime(claim.reviewed_at):%-d %b}"
