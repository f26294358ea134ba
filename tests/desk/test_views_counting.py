"""The claim page and the API say on every evidence row whether it counted, for which side and
with which weight, or why not; a snippet and its page that read opposite sides are one statement
and the page's reading stands; a conflict names the rows it weighed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from claims.models import Outcome
from decisions.models import VerdictReason
from evidence.models import ContentDepth, Method, Stance
from registry.models import Tier
from tests.factories import DecidedClaimFactory, EvidenceFactory, PageFactory, VerdictFactory

pytestmark = pytest.mark.django_db

URL = "https://competition.example/press/merger-cleared"


def _conflicted_claim(*, support_total: float = 1.8) -> tuple[Any, dict[str, Any]]:
    """The Authority's snippet supports (read on its page) and its page refutes (read with low
    confidence): the page's reading stands. The Council's page and a wire story support:
    support counts 1.8, and the Authority's unsure refutation weighs 1.0 against it, more than
    half of 1.8."""
    claim: Any = DecidedClaimFactory(
        text="The Authority cleared the Halden Rail merger", outcome=Outcome.INVALID
    )
    VerdictFactory(
        claim=claim,
        outcome=Outcome.INVALID,
        reason=VerdictReason.CONFLICTING,
        support_total=support_total,
        refute_total=0.0,
    )
    page = PageFactory(url=URL, domain="competition.example")
    rows = {
        "snippet": EvidenceFactory(
            claim=claim,
            page=page,
            method=Method.SNIPPET,
            content_depth=ContentDepth.SNIPPET,
            confidence="high",
            source_quote="The Authority cleared the merger on 21 November 2024.",
        ),
        "page": EvidenceFactory(
            claim=claim,
            page=page,
            stance=Stance.REFUTE,
            confidence="low",
            source_quote="The Authority approved the merger subject to commitments.",
        ),
        "council": EvidenceFactory(
            claim=claim,
            page=PageFactory(domain="council.example"),
            confidence="medium",
            source_quote="The Council welcomed the Authority's clearance of the merger.",
        ),
        "wire": EvidenceFactory(
            claim=claim,
            page=PageFactory(domain="wire.example"),
            tier=Tier.WIRE,
            weight=0.8,
            confidence="medium",
            source_quote="Regulator approves the Halden Rail takeover.",
        ),
        "neutral": EvidenceFactory(
            claim=claim,
            page=PageFactory(domain="trade.example"),
            tier=Tier.TRADE,
            weight=0.6,
            stance=Stance.NEUTRAL,
            source_quote="Freight terminals will open to rivals.",
        ),
    }
    return claim, rows


def _row_html(page: str, pk: int) -> str:
    start = page.index(f'<tbody id="evidence-{pk}"')
    return page[start : page.index("</tbody>", start)]


def test_every_row_says_whether_it_counted_and_why_not(editor_client: Client) -> None:
    claim, rows = _conflicted_claim()
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()

    assert (
        "Not counted: its page was read, and the page&#x27;s reading (refutes) stands for "
        "competition.example" in _row_html(page, rows["snippet"].pk)
    )
    assert "Counted: supports, weight 1.0" in _row_html(page, rows["council"].pk)
    assert "Counted: supports, weight 0.8" in _row_html(page, rows["wire"].pk)
    assert (
        "Not counted: below the reader&#x27;s sure bar (read with low confidence; medium needed)"
        in _row_html(page, rows["page"].pk)
    )
    assert "Not counted: takes no side" in _row_html(page, rows["neutral"].pk)


def test_a_snippet_and_its_page_reading_opposite_sides_are_one_statement_read_as_the_page(
    editor_client: Client,
) -> None:
    claim, rows = _conflicted_claim()
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()

    snippet, read = _row_html(page, rows["snippet"].pk), _row_html(page, rows["page"].pk)
    assert "Its page read refutes, not counted: below the reader&#x27;s sure bar" in snippet
    assert "Its snippet read supports, not counted: its page was read" in read
    assert "Counted" not in snippet.replace("Not counted", "")
    assert "Weighed against support in the conflict rule: refute 1.0" in read


def test_a_conflict_names_the_rows_that_disagree_and_their_weights(editor_client: Client) -> None:
    claim, rows = _conflicted_claim()
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()

    start = page.index('id="evidence-conflict"')
    block = page[start : page.index("</div>", start)]
    assert "Why the sources conflict." in block
    assert "Against it, refute weighs 1.0" in block and "more than the 0.9" in block
    for key in ("council", "wire", "page"):
        assert f'href="#evidence-{rows[key].pk}"' in block
    assert f'href="#evidence-{rows["snippet"].pk}"' not in block
    assert "not counted toward the total (below the reader" in block
    assert 'id="evidence-reweighed"' not in page


def test_rows_weighed_today_that_differ_from_the_verdict_say_so(editor_client: Client) -> None:
    claim, _ = _conflicted_claim(support_total=2.4)
    page = editor_client.get(reverse("claim_detail", args=[claim.pk])).content.decode()
    assert 'id="evidence-reweighed"' in page
    assert "Weighed today, these rows give support 1.8 and refute 0.0" in page


def test_the_api_gives_each_rows_count(api: Client) -> None:
    claim, rows = _conflicted_claim()
    body = api.get(f"/api/claims/{claim.pk}").json()
    evidence = {row["id"]: row for row in body["evidence"]}
    assert set(evidence) == {row.pk for row in rows.values()}
    snippet, read = evidence[rows["snippet"].pk], evidence[rows["page"].pk]
    assert (snippet["counted"], snippet["side"], snippet["counted_weight"], snippet["why"]) == (
        False,
        None,
        0.0,
        "page_stands",
    )
    council = evidence[rows["council"].pk]
    assert council["label"] == "Counted: supports, weight 1.0"
    assert (read["counted"], read["side"], read["counted_weight"], read["why"]) == (
        False,
        None,
        0.0,
        "unsure",
    )
    assert read["weighed_against"] == "weighed against support in the conflict rule: refute 1.0"
    assert read["pair"].startswith("Its snippet read supports, not counted: its page was read")
    counted = sum(row["counted_weight"] for row in body["evidence"] if row["side"] == "support")
    assert counted == pytest.approx(body["result"]["support_total"])
