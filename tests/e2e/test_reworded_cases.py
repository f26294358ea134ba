"""In a browser: demo facts written otherwise read right on the claim page. A true fact is True
with no refutation counted and each publisher counted on one side; a page about another event
takes no side."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _open(live_server: Any, page: Any, editor: Any, text: str) -> Claim:
    call_command("load_demo", stdout=io.StringIO())
    call_command("verify", text, stdout=io.StringIO())
    claim = Claim.objects.get(text=text)
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    return claim


def _rows(page: Any) -> list[tuple[str, str, str]]:
    """Each evidence row as (publisher, stance shown, counting line)."""
    rows = page.locator("tbody.ev-row")
    return [
        (
            rows.nth(i).locator("td[data-label=Source]").inner_text().split("\n")[0].strip(),
            rows.nth(i).locator("td[data-label=Stance]").inner_text().strip(),
            rows.nth(i).locator(".ev-count-label").inner_text().strip(),
        )
        for i in range(rows.count())
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Skyline Air and Polar Airways merger was prohibited on 9 July 2024",
        "Odesa port handled 3.1 million tonnes of grain in October 2024",
        "Parliament voted on the Digital Services Levy on 17 September 2024",
    ],
)
def test_a_true_demo_fact_written_otherwise_reads_true_with_each_publisher_on_one_side(
    live_server: Any, page: Any, editor: Any, text: str
) -> None:
    _open(live_server, page, editor, text)
    expect(page.locator("#verdict")).to_have_class("card verdict verdict-true")
    expect(page.locator("#verdict .verdict-outcome .badge-xl")).to_have_text("True")
    expect(page.locator("#verdict-reason")).to_contain_text("refute 0.0")
    rows = _rows(page)
    counted = [(who, label) for who, _, label in rows if label.startswith("Counted: ")]
    assert counted, rows
    assert not any(label.startswith("Counted: refutes") for _, label in counted), rows
    sides: dict[str, set[str]] = {}
    for who, label in counted:
        sides.setdefault(who, set()).add(label.split(",")[0])
    assert all(len(side) == 1 for side in sides.values()), sides
    expect(page.locator("#verdict-summary")).not_to_contain_text("contradict")


def test_a_page_about_another_event_is_not_read_as_refuting(
    live_server: Any, page: Any, editor: Any
) -> None:
    _open(live_server, page, editor, "Aurora-2 retired in January 2024")
    expect(page.locator("#verdict")).not_to_have_class("card verdict verdict-false")
    launch = page.locator("tbody.ev-row", has=page.locator("a[href*='aurora-3']"))
    assert launch.count() > 0  # the launch pages were found and read
    for i in range(launch.count()):
        stance = launch.nth(i).locator("td[data-label=Stance]").inner_text().strip()
        assert stance != "Refutes", stance
