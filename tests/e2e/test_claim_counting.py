"""In a browser: the Halden claim's evidence table says on each of the Authority's rows whether
it counted, and where its snippet and its page read opposite sides, which one counted."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from claims.models import Claim
from evidence.models import Evidence, Method
from tests.e2e.test_review_desk import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HALDEN = (
    "Halden Rail and Nordfrakt Logistics merger was cleared by the competition authority on "
    "21 November 2024"
)
PRESS_RELEASE = "https://competition.example/press/halden-rail-nordfrakt-merger-cleared"


def _count_line(page: Any, row: Evidence) -> Any:
    return page.locator(f"tbody#evidence-{row.pk} td.ev-count")


def test_the_authoritys_snippet_and_page_rows_say_which_one_counted(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    call_command("load_demo", stdout=io.StringIO())
    call_command("verify", HALDEN, stdout=io.StringIO())
    claim = Claim.objects.get(text=HALDEN)
    rows = Evidence.objects.filter(claim=claim, url=PRESS_RELEASE, duplicate_of__isnull=True)
    snippet = rows.get(method=Method.SNIPPET)
    read = rows.exclude(method=Method.SNIPPET).get()
    assert {snippet.stance, read.stance} == {"support", "refute"}

    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")

    labels = {}
    for row, other_kind in ((snippet, "page"), (read, "snippet")):
        line = _count_line(page, row)
        expect(line).to_be_visible()
        labels[row.pk] = line.locator(".ev-count-label").inner_text()
        assert labels[row.pk].startswith(("Counted: ", "Not counted: ")), labels[row.pk]
        expect(line.locator(".ev-pair")).to_contain_text(f"Its {other_kind} read ")
    # Each row's note on the other tells the other's own count.
    for row, other in ((snippet, read), (read, snippet)):
        pair = _count_line(page, row).locator(".ev-pair").inner_text()
        if labels[other.pk].startswith("Counted: "):
            assert pair.endswith("and counted"), pair
        else:
            assert labels[other.pk].removeprefix("Not counted: ") in pair, pair
    # On today's readings neither counts: the snippet is a lead never checked on its page, the
    # page's reading is too unsure; the Authority counts with its decision (a PDF) instead.
    expect(_count_line(page, snippet)).to_contain_text("Not counted: a lead, not read")
    expect(_count_line(page, read)).to_contain_text("Not counted: below the reader's sure bar")
    decision = Evidence.objects.get(
        claim=claim, url__endswith="M-1187-decision.pdf", method=Method.MODEL
    )
    expect(_count_line(page, decision)).to_contain_text("Counted: refutes, weight 1.0")
    page.locator(f"tbody#evidence-{snippet.pk}").scroll_into_view_if_needed()
    screenshot("claim-evidence-counted")
