"""The queue's tools in a browser: sorting by a column, a saved "my queue" view, and acting on
ticked claims (with a confirmation in the page, and an override of many at once)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_review_desk import sign_in
from tests.factories import DecidedClaimFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _texts(page: Any) -> list[str]:
    return [
        text.strip() for text in page.locator("#claim-results td.claim-cell a").all_inner_texts()
    ]


def test_an_editor_sorts_the_queue_by_a_column_and_keeps_the_order_while_filtering(
    live_server: Any, page: Any, editor: Any
) -> None:
    now = timezone.now()
    DecidedClaimFactory(
        text="Port of Velmora strike ended", support_total=0.4, created_at=now - timedelta(hours=3)
    )
    DecidedClaimFactory(
        text="Port of Odesa handled grain", support_total=2.4, created_at=now - timedelta(hours=2)
    )
    DecidedClaimFactory(text="Riverton will host the Games", support_total=1.2,
                        created_at=now - timedelta(hours=1))  # fmt: skip
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    assert _texts(page)[0] == "Riverton will host the Games"

    support = page.get_by_role("columnheader", name="Support")
    support.get_by_role("link").click()
    expect(support).to_have_attribute("aria-sort", "descending")
    assert _texts(page) == [
        "Port of Odesa handled grain",
        "Riverton will host the Games",
        "Port of Velmora strike ended",
    ]
    page.get_by_role("columnheader", name="Support").get_by_role("link").click()
    expect(page.get_by_role("columnheader", name="Support")).to_have_attribute(
        "aria-sort", "ascending"
    )
    assert _texts(page)[0] == "Port of Velmora strike ended"

    # A search keeps the order.
    page.locator("#f-q").fill("Port")
    expect(page.locator("#claim-results .result-count")).to_have_text(
        "2 claims match these filters"
    )
    assert _texts(page) == ["Port of Velmora strike ended", "Port of Odesa handled grain"]
    expect(page).to_have_url(re.compile(r"[?&]q=Port(&|$)"))
    assert "sort=support" in page.url


def test_an_editor_saves_a_view_as_my_queue_and_comes_back_to_it(
    live_server: Any, page: Any, editor: Any
) -> None:
    DecidedClaimFactory(text="Port of Odesa handled grain", outcome="false")
    DecidedClaimFactory(text="Riverton will host the Games", outcome="true")
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    expect(page.locator("#my-queue-link")).to_have_count(0)
    page.locator("#f-outcome").select_option("false")
    expect(page.locator("#claim-results .result-count")).to_have_text(
        "1 claim matches these filters"
    )
    page.get_by_role("button", name="Save this view as my queue").click()
    expect(page.locator("#messages")).to_contain_text("Saved as your queue")
    expect(page.locator("#is-my-queue")).to_have_text("Your queue")

    page.get_by_role("link", name="Clear").click()
    expect(page.locator("#claim-results .result-count")).to_have_text("2 claims")
    expect(page.locator("#is-my-queue")).to_have_count(0)
    page.get_by_role("link", name="My queue").click()
    expect(page.locator("#f-outcome")).to_have_value("false")
    assert _texts(page) == ["Port of Odesa handled grain"]
    expect(page.locator("#is-my-queue")).to_be_visible()
