"""First login after set-up finds the demo claims decided; every page fits a phone's width."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim, ClaimStatus
from demo.loader import demo_claims
from harvester.models import SearchRun
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _set_up() -> None:
    """What scripts/run does before the first login."""
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())


def test_the_first_login_finds_the_demo_claims_decided(
    live_server: Any, page: Any, admin_user: Any, screenshot: Any
) -> None:
    _set_up()
    sign_in(page, live_server, admin_user)
    page.goto(f"{live_server.url}/")
    expect(page.get_by_text("No claims yet.")).to_have_count(0)
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(len(demo_claims()))
    expect(
        page.get_by_text("Veltria Motors opened its battery cell plant in Karsfeld.")
    ).to_be_visible()
    assert Claim.objects.exclude(status=ClaimStatus.DECIDED).count() == 0
    screenshot("first-login-queue")


def _shot(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"phone-{name}.png"


def _width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_every_page_fits_a_phone(live_server: Any, browser: Any, admin_user: Any) -> None:
    _set_up()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server, admin_user)
    claim = Claim.objects.order_by("pk").first()
    assert claim is not None
    run = SearchRun.objects.order_by("pk").first()
    assert run is not None
    pages = {
        "queue": "/",
        "claim": f"/claims/{claim.pk}/",
        "new": "/claims/new/",
        "dashboard": "/dashboard/",
        "domains": "/domains/",
        "domain-history": "/domains/changes/",
        "search-runs": "/search-runs/",
        "search-run": f"/search-runs/{run.pk}/",
    }
    too_wide = {}
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        page.screenshot(path=str(_shot(name)), full_page=True)
        if _width(page) > PHONE["width"]:
            too_wide[name] = _width(page)

    # A pasted batch with a very long bad line keeps the error box inside the card.
    page.goto(f"{live_server.url}/claims/new/")
    page.get_by_label("Claims, one per line").fill("A fine claim here\n" + "y" * 2100)
    page.get_by_role("button", name="Check all of them").click()
    expect(page.locator("#batch-problems")).to_contain_text("Line 2")
    page.screenshot(path=str(_shot("batch-error")), full_page=True)
    if _width(page) > PHONE["width"]:
        too_wide["batch-error"] = _width(page)
    context.close()
    assert too_wide == {}


NAV = {
    "Claims": "/",
    "Search runs": "/search-runs/",
    "Domains": "/domains/",
    "Aliases": "/domains/aliases/",
    "Dashboard": "/dashboard/",
}


def _nav_link_in_view(page: Any, label: str, width: int) -> Any:
    link = page.get_by_role("navigation", name="Main").get_by_role("link", name=label, exact=True)
    expect(link).to_be_visible()
    box = link.bounding_box()
    assert box is not None
    # Whole within the viewport, and not hidden under a scrolling edge of the nav.
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (label, box)
    assert page.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === el; }",
        link.element_handle(),
    ), label
    return link


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}])
def test_every_nav_item_is_in_view_and_clickable(
    live_server: Any, browser: Any, admin_user: Any, viewport: dict[str, int]
) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sign_in(page, live_server, admin_user)
    for label, path in NAV.items():
        page.goto(f"{live_server.url}/")
        _nav_link_in_view(page, label, viewport["width"]).click()
        page.wait_for_url(f"{live_server.url}{path}")
        current = page.get_by_role("navigation", name="Main").locator("[aria-current=page]")
        expect(current).to_have_text(label)
    if viewport == PHONE:
        page.screenshot(path=str(_shot("nav")))
    context.close()
