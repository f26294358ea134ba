"""Small things a new user met on the pages: a safe default tier, one id per field, and a way
back to the app from the API docs."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from registry.models import Domain, Tier
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_domain_counts_as_other_unless_the_admin_chooses(
    live_server: Any, page: Any, admin_user: Any
) -> None:
    sign_in(page, live_server, admin_user)
    page.goto(f"{live_server.url}/domains/")
    page.get_by_text("Add a domain").click()
    tier = page.locator("details.add-domain").get_by_label("Tier")
    expect(tier).to_have_value(Tier.OTHER)
    page.locator("details.add-domain").get_by_label("Domain").fill("newsletter.example")
    page.get_by_role("button", name="Add domain").click()
    expect(page.locator("#messages")).to_contain_text("newsletter.example")
    assert Domain.objects.get(name="newsletter.example").tier == Tier.OTHER


def test_every_field_of_the_check_a_claim_page_has_its_own_id(
    live_server: Any, page: Any, editor: Any
) -> None:
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/new/")
    duplicated = page.evaluate(
        """() => { const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
                   return ids.filter((id, i) => ids.indexOf(id) !== i); }"""
    )
    assert duplicated == []
    # Each channel label leads to its own form's field.
    page.get_by_label("Channel for all of them").fill("@batch")
    page.get_by_label("Channel", exact=True).fill("@one")
    expect(page.locator("#id_batch_source_channel")).to_have_value("@batch")
    expect(page.locator("#id_source_channel")).to_have_value("@one")


def test_the_api_docs_lead_back_to_the_app(live_server: Any, page: Any, editor: Any) -> None:
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/api/docs")
    expect(page.locator("#swagger-ui")).to_contain_text("ClaimCheck API", timeout=15_000)
    page.get_by_role("link", name="← Back to ClaimCheck").click()
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.get_by_role("heading", name="Claims", exact=True)).to_be_visible()
