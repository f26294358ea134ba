"""The review workflow in a browser: a bulk action after a counted confirmation, taking a claim
(and finding it under "Taken by me"), a comment, and a re-run that shows what changed."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim
from tests.e2e.test_review_desk import BackgroundWorker, sign_in, worker  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_editor_works_through_the_review_workflow(
    live_server: Any,
    page: Any,
    editor: Any,
    screenshot: Any,
    worker: BackgroundWorker,  # noqa: F811
) -> None:
    call_command("load_demo", decide_claims=True, stdout=io.StringIO())
    claims = list(Claim.objects.order_by("created_at", "id"))
    sign_in(page, live_server, editor)

    # Bulk: tick two claims, confirm "Mark 2 claims reviewed?".
    page.goto(f"{live_server.url}/")
    for claim in claims[-2:]:
        page.locator(f"#pick-{claim.pk}").check()
    page.get_by_role("button", name="Mark reviewed").click()
    expect(page.locator("#confirm-question")).to_have_text(
        "Mark 2 claims reviewed? Their verdicts stand."
    )
    page.locator("#confirm").get_by_role("button", name="Confirm").click()
    expect(page.locator("#messages")).to_contain_text("2 claims marked reviewed.")
    assert Claim.objects.filter(reviewed_at__isnull=False).count() == 2
    screenshot("workflow-bulk")

    # Take the first claim to review, then find it under "Taken by me".
    target = claims[0]
    page.keyboard.press("j")
    expect(page).to_have_url(f"{live_server.url}/claims/{target.pk}/")
    page.keyboard.press("t")
    expect(page.locator("#assignment")).to_contain_text("Taken by you")
    page.keyboard.press("c")
    expect(page.get_by_label("Comment", exact=True)).to_be_focused()
    page.keyboard.type("The register entry matches <b>both</b> wire reports.")
    page.get_by_role("button", name="Comment", exact=True).click()
    thread = page.locator("#discussion .comments")
    expect(thread).to_contain_text("The register entry matches <b>both</b> wire reports.")
    expect(thread).to_contain_text(editor.username)
    screenshot("workflow-taken-and-commented")

    page.goto(f"{live_server.url}/?mine=on")
    rows = page.locator("#claim-results tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("taken by you")

    # Re-run: confirmed, checked again by the worker, then what changed is shown.
    page.goto(f"{live_server.url}/claims/{target.pk}/")
    page.get_by_role("button", name="Re-run").click()
    page.locator("#confirm").get_by_role("button", name="Confirm").click()
    expect(page.get_by_text("Re-run queued")).to_be_visible()
    worker.go.set()
    changes = page.locator("#run-changes")
    expect(changes).to_be_visible(timeout=60_000)
    expect(changes).to_contain_text("Changed since run 1")
    assert worker.errors == []
    screenshot("workflow-rerun-changes")
