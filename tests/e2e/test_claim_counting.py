"""In a browser: the Halden claim's evidence table says on each of the Authority's rows whether
it counted: its snippet and its page are one statement, counted once."""

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


def test_the_authoritys_snippet_and_page_rows_read_one_side_and_say_whether_they_counted(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    """The strong reader reads the Authority's own sentence ("approved the merger ... on 21
    November 2024") as support both in its snippet and on its page; the fast reader alone read
    the page as refuting it. Each row says whether it counted, and why not."""
    call_command("load_demo", stdout=io.StringIO())
    call_command("verify", HALDEN, stdout=io.StringIO())
    claim = Claim.objects.get(text=HALDEN)
    rows = Evidence.objects.filter(claim=claim, url=PRESS_RELEASE, duplicate_of__isnull=True)
    snippet = rows.get(method=Method.SNIPPET)
    read = rows.exclude(method=Method.SNIPPET).get()
    assert (snippet.stance, read.stance) == ("support", "support")

    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    for row in (snippet, read):
        line = _count_line(page, row)
        expect(line).to_be_visible()
        label = line.locator(".ev-count-label").inner_text()
        assert label.startswith(("Counted: ", "Not counted: ")), label
        expect(line.locator(".ev-pair")).to_have_count(0)  # no opposite reading to name
    # The snippet and the page are one reading of one side: the Authority counts once.
    lines = [_count_line(page, row).inner_text() for row in (snippet, read)]
    assert sum(line.startswith("Counted: supports, weight 1.0") for line in lines) == 1, lines
    assert sum("a weaker row of competition.example" in line for line in lines) == 1, lines
    expect(page.locator("#verdict-summary")).to_contain_text("confirm the claim")
    bullets = page.locator("#verdict-evidence li")
    expect(bullets.first).to_be_visible()
    for text in bullets.all_inner_texts():
        assert "refute" not in text, text
    page.locator(f"tbody#evidence-{snippet.pk}").scroll_into_view_if_needed()
    screenshot("claim-evidence-counted")


NORDVIK = "Halvard Energy's Nordvik offshore wind farm began commercial operation in December 2024."
NASOFLU = "The Union Medicines Agency authorised the nasal flu vaccine Nasoflu in October 2024."


def test_a_conflict_names_the_rows_that_disagree_with_their_weights(
    live_server: Any, page: Any, editor: Any, screenshot: Any
) -> None:
    call_command("load_demo", stdout=io.StringIO())
    call_command("verify", NORDVIK, stdout=io.StringIO())
    claim = Claim.objects.get(text=NORDVIK)
    assert claim.verdicts.get().reason == "conflicting"

    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    block = page.locator("#evidence-conflict")
    expect(block).to_contain_text("Why the sources conflict.")
    rows = block.locator("ul.conflict-rows li")
    texts = [rows.nth(i).inner_text() for i in range(rows.count())]
    stances = {("support" if "support" in t else "refute") for t in texts}
    assert stances == {"support", "refute"}, texts
    assert all("weight " in t for t in texts), texts
    # Each named row links to its own row of the table.
    first = rows.first.locator("a")
    expect(page.locator(str(first.get_attribute("href")))).to_be_visible()
    screenshot("claim-conflict-rows")


def test_a_row_shown_with_a_weight_that_did_not_count_says_why_on_its_row(
    live_server: Any, page: Any, editor: Any
) -> None:
    call_command("load_demo", stdout=io.StringIO())
    call_command("verify", NASOFLU, stdout=io.StringIO())
    claim = Claim.objects.get(text=NASOFLU)
    # The Agency's snippet supports, with the Agency's weight, and was never checked on its
    # page: the page was read, and its own reading counts.
    snippet = Evidence.objects.get(
        claim=claim,
        domain="medicines-agency.example",
        method=Method.SNIPPET,
        duplicate_of__isnull=True,
    )
    assert snippet.stance == "support" and snippet.weight == 1.0

    sign_in(page, live_server, editor)
    page.goto(f"{live_server.url}/claims/{claim.pk}/")
    expect(_count_line(page, snippet)).to_contain_text(
        "Not counted: a lead, not read itself: its page was read, and the page's own reading stands"
    )
    # The verdict's own numbers: what counted on each side is what the table says counted.
    counted = page.locator("td.ev-count.counted .ev-count-label")
    labels = [counted.nth(i).inner_text() for i in range(counted.count())]
    assert all(not label.startswith("Counted: refutes") for label in labels), labels
    expect(page.locator("#verdict-reason")).to_contain_text("refute 0.0")
