"""The queue's tools in a browser: sorting by a column, a saved "my queue" view, and acting on
ticked claims (with a confirmation in the page, and an override of many at once)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from claims.models import Claim
from decisions.models import Override
from tests.e2e.test_review_desk import sign_in
from tests.factories import DecidedClaimFactory, VerdictFactory

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
    expect(page.locator("#claims-order")).to_contain_text("Every claim checked, newest first.")

    support = page.get_by_role("columnheader", name="Support")
    support.get_by_role("link").click()
    expect(support).to_have_attribute("aria-sort", "descending")
    assert _texts(page) == [
        "Port of Odesa handled grain",
        "Riverton will host the Games",
        "Port of Velmora strike ended",
    ]
    expect(page.locator("#claims-order")).to_contain_text("by support, the most first")
    expect(page.locator("#claims-order")).not_to_contain_text("newest first")
    page.get_by_role("columnheader", name="Support").get_by_role("link").click()
    expect(page.get_by_role("columnheader", name="Support")).to_have_attribute(
        "aria-sort", "ascending"
    )
    assert _texts(page)[0] == "Port of Velmora strike ended"
    expect(page.locator("#claims-order")).to_contain_text("by support, the least first")

    # A search keeps the order.
    page.locator("#f-q").fill("Port")
    expect(page.locator("#claim-results .result-count")).to_have_text(
        "2 claims match these filters"
    )
    assert _texts(page) == ["Port of Velmora strike ended", "Port of Odesa handled grain"]
    expect(page).to_have_url(re.compile(r"[?&]q=Port(&|$)"))
    assert "sort=support" in page.url
    expect(page.locator("#claims-order")).to_contain_text("by support, the least first")


def test_a_search_for_a_number_with_a_thousands_separator_finds_it(
    live_server: Any, page: Any, editor: Any
) -> None:
    DecidedClaimFactory(text="The ministry hired 2,000 nurses")
    DecidedClaimFactory(text="The council hired 2 nurses and 1,000 cooks")
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    page.locator("#f-q").fill("2,000")
    expect(page.locator("#claim-results .result-count")).to_have_text(
        "1 claim matches these filters"
    )
    assert _texts(page) == ["The ministry hired 2,000 nurses"]


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


def _decided(text: str) -> Any:
    claim = DecidedClaimFactory(text=text, outcome="true")
    VerdictFactory(claim=claim, outcome="true")
    return claim


def _no_native_dialogs(page: Any) -> list[str]:
    """Every window.confirm() / alert() the page opens; the desk asks in the page instead."""
    opened: list[str] = []

    def refuse(dialog: Any) -> None:
        opened.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", refuse)
    return opened


def test_bulk_actions_ask_in_the_page_and_cancel_changes_nothing(
    live_server: Any, page: Any, editor: Any
) -> None:
    first, second = _decided("Port of Odesa handled grain"), _decided("Riverton will host")
    native = _no_native_dialogs(page)
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    confirm = page.locator("#confirm")

    page.get_by_role("button", name="Re-run").click()
    expect(confirm).to_be_visible()
    expect(confirm).to_contain_text("Tick at least one claim first.")
    expect(page.locator("#confirm-yes")).to_be_hidden()
    page.locator("#confirm-no").click()
    expect(confirm).to_be_hidden()

    page.locator(f"#pick-{first.pk}").check()
    page.locator(f"#pick-{second.pk}").check()
    page.get_by_role("button", name="Mark reviewed").click()
    expect(page.locator("#confirm-question")).to_have_text(
        "Mark 2 claims reviewed? Their verdicts stand."
    )
    page.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    assert not Claim.objects.filter(reviewed_at__isnull=False).exists()

    page.get_by_role("button", name="Mark reviewed").click()
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("#messages")).to_contain_text("2 claims marked reviewed.")
    assert Claim.objects.filter(reviewed_at__isnull=False).count() == 2
    assert native == []


def test_an_editor_overrides_ticked_claims_together_with_one_reason(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    first, second = _decided("Port of Odesa handled grain"), _decided("Riverton will host")
    untouched = _decided("Velmora port strike ended")
    native = _no_native_dialogs(page)
    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/")
    page.locator(f"#pick-{first.pk}").check()
    page.locator(f"#pick-{second.pk}").check()
    page.get_by_role("button", name="Override…").click()
    dialog = page.locator("#bulk-override")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading")).to_have_text("Override 2 claims")
    dialog.get_by_label("New outcome").select_option("false")
    # The reason is asked for before anything is sent.
    dialog.get_by_role("button", name="Override").click()
    expect(dialog).to_be_visible()
    dialog.get_by_label("Reason").fill("The port authority retracted its figures")
    screenshot("queue-bulk-override")
    dialog.get_by_role("button", name="Override").click()
    expect(page.locator("#messages")).to_contain_text("2 claims overridden to False.")

    overrides = Override.objects.order_by("verdict__claim_id")
    assert [o.verdict.claim_id for o in overrides] == [first.pk, second.pk]
    assert {o.reason for o in overrides} == {"The port authority retracted its figures"}
    assert {o.editor_id for o in overrides} == {editor.pk}
    for claim in (first, second):
        claim.refresh_from_db()
        assert claim.outcome == "false" and claim.overridden
        assert claim.events.filter(kind="override").count() == 1
    untouched.refresh_from_db()
    assert untouched.outcome == "true" and not untouched.overridden
    assert native == []
