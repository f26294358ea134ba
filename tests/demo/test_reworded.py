"""Demo facts written otherwise: the engine reads a synonym, a passive, a number written
otherwise, and keeps one publisher on one side; a rule stops a support from counting and never
makes a refutation of a page about another event. The cases are the ones an editor met on the
demo corpus; `bench/reworded_bench.py` runs the whole reworded set."""

from __future__ import annotations

from collections import defaultdict

import pytest

from claims.models import Claim
from decisions.selectors import claim_counting
from demo.loader import demo_claims
from desk.selectors.claim_page import claim_page
from tests.demo.runs import demo_run

pytestmark = pytest.mark.django_db


def _counted_sides(claim: Claim) -> dict[str, set[str]]:
    """Each publisher's counted sides."""
    counting = claim_counting(claim=claim)
    sides: dict[str, set[str]] = defaultdict(set)
    for row in counting.shown:
        count = counting.rows[row.pk]
        if count.counted:
            sides[row.syndicated_from or row.domain].add(count.stance)
    return sides


@pytest.mark.parametrize(
    "text",
    [
        # "did not approve" and "blocked" say what "prohibited" says
        "Skyline Air and Polar Airways merger was prohibited on 9 July 2024",
        # the counted quotes say exactly this; a dateline is not the event's date
        "Odesa port handled 3.1 million tonnes of grain in October 2024",
        # the Authority's snippet and its page are one statement
        "Halden Rail and Nordfrakt Logistics merger was cleared by the competition authority "
        "on 21 November 2024",
        # parliament.example's snippet and headline are one publisher, on one side
        "Parliament voted on the Digital Services Levy on 17 September 2024",
    ],
)
def test_a_true_demo_fact_written_otherwise_is_true_with_each_publisher_on_one_side(
    text: str,
) -> None:
    claim, verdict = demo_run(text)
    assert verdict.outcome == "true", verdict.proof_markdown
    assert verdict.refute_total == 0, verdict.proof_markdown
    sides = _counted_sides(claim)
    assert all(len(counted) == 1 for counted in sides.values()), sides


def test_a_page_about_another_event_never_refutes() -> None:
    claim, verdict = demo_run("Aurora-2 retired in January 2024")
    assert verdict.outcome != "false", verdict.proof_markdown
    counting = claim_counting(claim=claim)
    launch = [r for r in counting.shown if "aurora-3" in r.url]
    assert all(r.stance != "refute" for r in launch), [(r.url, r.stance) for r in launch]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Odesa port handled 5 million tonnes of grain in October 2024.", "another number"),
        ("The Union Parliament rejected the Digital Services Levy in September 2024.", "opposite"),
        ("Veltria Motors opened its Karsfeld battery cell plant in 2022.", "another date"),
    ],
)
def test_a_false_demo_fact_is_refuted_by_pages_about_its_own_event(text: str, why: str) -> None:
    claim, verdict = demo_run(text)
    assert verdict.outcome == "false", (why, verdict.proof_markdown)
    assert verdict.support_total == 0, verdict.proof_markdown
    counting = claim_counting(claim=claim)
    refuting = [r for r in counting.shown if counting.rows[r.pk].counted]
    # Each counted refutation is a sentence about the claim's own event.
    assert refuting and all(
        any(word in r.source_quote for word in ("Odesa", "Levy", "Karsfeld")) for r in refuting
    )


def test_the_card_tells_what_counted_on_the_nasoflu_claim() -> None:
    nasoflu = next(c for c in demo_claims() if "Nasoflu" in c.text)
    claim, verdict = demo_run(
        nasoflu.text, timeframe_start=nasoflu.timeframe_start, timeframe_end=nasoflu.timeframe_end
    )
    # The regulator's own notice, read as a sure support, is what its weighed True stands on.
    assert verdict.outcome == "true"
    page = claim_page(claim=claim)
    counting = claim_counting(claim=claim)
    counted = {row.url for row in counting.shown if counting.rows[row.pk].counted}
    # The Evidence bullets are the counted readings; nothing refutes where refute counts 0.
    assert page.support_bullets and all(b.url in counted for b in page.support_bullets)
    assert verdict.refute_total == 0
    assert all(b.stance != "refute" for b in page.support_bullets)
    # Pages about other events (the Odesa cargo figures, the Aurora-3 launch) take no side.
    for row in counting.shown:
        if "odesa" in row.url or "aurora-3" in row.url:
            assert row.stance == "neutral", (row.url, row.stance)
    for word in ("witness", " sure", "P(True)", "moved"):
        assert word not in verdict.proof_markdown
