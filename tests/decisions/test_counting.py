"""What counted and why, row by row (`decisions.counting`): every reason a row does not count,
in the words an editor reads on it, and counted rows that add up to the decision's totals."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from decisions.counting import Counting, count_rows
from decisions.decide import decide_from_history
from decisions.hits import evidence_hit
from decisions.types import ClaimQuestion, Final, NotCounted, SearchHistory
from evidence.models import ContentDepth, Evidence, Method, VerificationStatus
from registry.models import Tier

WINDOW = ClaimQuestion(
    text="The Authority cleared the merger in November 2024",
    timeframe_start=datetime(2024, 11, 1, tzinfo=UTC),
    timeframe_end=datetime(2024, 11, 30, tzinfo=UTC),
)
WEIGHTS = {Tier.OFFICIAL: 1.0, Tier.WIRE: 0.8, Tier.TRADE: 0.6, Tier.OTHER: 0.4, Tier.SOCIAL: 0.0}


def row(pk: int, domain: str, stance: str = "support", **fields: Any) -> Evidence:
    """A stored row as the claim loop reads it (not saved: counting reads only its fields)."""
    tier = fields.pop("tier", Tier.OFFICIAL)
    values: dict[str, Any] = {
        "url": f"https://{domain}/{pk}",
        "title": f"{domain} story",
        "weight": WEIGHTS[tier],
        "confidence": "high",
        "method": Method.MODEL,
        "content_depth": ContentDepth.FULL,
        "verification_status": VerificationStatus.VERIFIED,
        "in_window": True,
        "event_at": datetime(2024, 11, 21, tzinfo=UTC),
        "stance_score": 0.9,
        "attempt": 1,
        **fields,
    }
    return Evidence(pk=pk, domain=domain, tier=tier, stance=stance, **values)


def counting(rows: list[Evidence], **settings: Any) -> Counting:
    return count_rows(
        question=settings.pop("question", WINDOW),
        rows=rows,
        attempt_offset=settings.pop("attempt_offset", 0),
        min_confidence=settings.pop("min_confidence", "medium"),
        limit=settings.pop("limit", 5),
        threshold=settings.pop("threshold", 1.6),
        max_opposition=settings.pop("max_opposition", 0.5),
    )


def label(result: Counting, pk: int) -> str:
    return result.rows[pk].label


def test_a_row_that_counts_says_for_which_side_and_with_which_weight() -> None:
    result = counting([row(1, "competition.example"), row(2, "wire.example", tier=Tier.WIRE)])
    assert label(result, 1) == "Counted: supports, weight 1.0"
    assert label(result, 2) == "Counted: supports, weight 0.8"
    assert result.support_total == pytest.approx(1.8)


def test_a_snippet_not_read_on_its_page_is_a_lead() -> None:
    snippet = {"method": Method.SNIPPET, "content_depth": ContentDepth.SNIPPET}
    result = counting(
        [
            row(1, "a.example", verification_status=VerificationStatus.UNVERIFIED, **snippet),
            row(2, "b.example", verification_status=VerificationStatus.FAILED, **snippet),
            row(3, "c.example", content_depth=ContentDepth.SNIPPET),
        ]
    )
    assert label(result, 1) == (
        "Not counted: a lead, not read (its snippet is not checked on its page yet)"
    )
    assert (
        label(result, 2) == "Not counted: a lead, not read (its snippet was not found on its page)"
    )
    assert label(result, 3) == (
        "Not counted: a lead, not read (only a snippet of its page could be read)"
    )
    assert {result.rows[pk].why for pk in (1, 2, 3)} == {NotCounted.LEAD}


def test_a_reading_less_sure_than_the_bar_does_not_count() -> None:
    result = counting([row(1, "a.example", "refute", confidence="low")])
    assert label(result, 1) == (
        "Not counted: below the reader's sure bar (read with low confidence; medium needed)"
    )
    assert result.refute_total == 0


def test_support_dated_outside_the_timeframe_does_not_count_but_a_refutation_does() -> None:
    late = datetime(2025, 1, 3, tzinfo=UTC)
    result = counting(
        [
            row(1, "a.example", in_window=False, event_at=late),
            row(2, "b.example", in_window=None, event_at=None),
            row(3, "c.example", "refute", in_window=False, event_at=late),
        ]
    )
    assert label(result, 1) == "Not counted: outside the timeframe (event 2025-01-03)"
    assert label(result, 2) == (
        "Not counted: outside the timeframe (undated, and support must be dated inside it)"
    )
    assert label(result, 3) == "Counted: refutes, weight 1.0"


def test_a_weaker_row_of_a_publisher_already_counted_says_so() -> None:
    result = counting([row(1, "a.example", stance_score=0.6), row(2, "a.example")])
    assert label(result, 2) == "Counted: supports, weight 1.0"
    assert label(result, 1) == (
        "Not counted: a weaker row of a.example (a.example counted once, with another row)"
    )
    assert result.support_total == pytest.approx(1.0)


@pytest.mark.django_db
def test_a_reprint_of_a_publisher_already_counted_is_a_copy() -> None:
    original = row(1, "wire.example", tier=Tier.WIRE)
    reprint = row(2, "paper.example", tier=Tier.OTHER, syndicated_from="wire.example")
    result = counting([original, reprint])
    assert label(result, 1) == "Counted: supports, weight 0.8"
    assert label(result, 2) == (
        "Not counted: a copy of wire.example's story, syndicated "
        "(wire.example counted once, with wire.example's row)"
    )
    assert result.rows[2].why == NotCounted.REPRINT


def test_a_stored_copy_of_a_statement_counts_once_and_is_not_shown() -> None:
    result = counting([row(1, "a.example"), row(2, "a.example", duplicate_of_id=1)])
    assert label(result, 2) == (
        "Not counted: a copy of another row of a.example (the same statement, counted once there)"
    )
    assert [r.pk for r in result.shown] == [1] and result.copies == 1


def test_rows_that_take_no_side_or_come_from_a_publisher_with_no_weight() -> None:
    result = counting([row(1, "a.example", "neutral"), row(2, "chirper.example", tier=Tier.SOCIAL)])
    assert label(result, 1) == "Not counted: takes no side"
    assert label(result, 2) == "Not counted: a publisher with no weight (a social post)"


def test_rows_of_an_earlier_run_are_not_weighed_in_this_one() -> None:
    result = counting(
        [row(1, "a.example", attempt=2), row(2, "b.example", attempt=3)], attempt_offset=2
    )
    assert label(result, 1) == "Not counted: from an earlier run (not weighed in this one)"
    assert label(result, 2) == "Counted: supports, weight 1.0"
    assert [r.pk for r in result.shown] == [2]


def test_a_row_below_its_sides_best_rows_is_not_weighed() -> None:
    rows = [
        row(1, "a.example"),
        row(2, "b.example", tier=Tier.WIRE),
        row(3, "c.example", tier=Tier.OTHER),
        row(4, "d.example", tier=Tier.OTHER, confidence="low"),
    ]
    result = counting(rows, limit=2)
    assert (
        label(result, 3)
        == "Not counted: below the best 2 rows of its side (only those are weighed)"
    )
    # A row beyond the best that could not count anyway says why first.
    assert result.rows[4].why == NotCounted.UNSURE
    assert result.beyond_top == 2


def test_a_snippet_and_its_page_that_read_opposite_sides_are_one_statement_the_pages() -> None:
    url = "https://competition.example/press/merger-cleared"
    snippet = row(1, "competition.example", url=url, method=Method.SNIPPET)
    page = row(2, "competition.example", "refute", url=url, confidence="low")
    result = counting([snippet, page, row(3, "wire.example", tier=Tier.WIRE)])
    assert label(result, 1) == (
        "Not counted: its page was read, and the page's reading (refutes) stands for "
        "competition.example"
    )
    assert result.rows[1].why == NotCounted.PAGE_STANDS
    assert result.rows[1].pair == (
        "Its page read refutes, not counted: below the reader's sure bar "
        "(read with low confidence; medium needed)"
    )
    assert label(result, 2).startswith("Not counted: below the reader's sure bar")
    assert result.rows[2].pair.startswith("Its snippet read supports, not counted: its page")
    assert result.support_total == pytest.approx(0.8)


def test_a_publisher_counts_on_one_side_only_with_its_surer_reading() -> None:
    rows = [
        row(1, "a.example", url="https://a.example/one", confidence="medium"),
        row(2, "a.example", "refute", url="https://a.example/two", confidence="high"),
        row(3, "b.example", tier=Tier.WIRE),
    ]
    result = counting(rows)
    assert result.rows[1].why == NotCounted.OTHER_SIDE
    assert label(result, 1) == (
        "Not counted: a.example counts on one side only: its surer reading refutes"
    )
    assert label(result, 2) == "Counted: refutes, weight 1.0"
    assert (result.support_total, result.refute_total) == (pytest.approx(0.8), 1.0)


def test_a_conflict_names_the_readings_it_weighed_those_the_totals_leave_out_included() -> None:
    url = "https://competition.example/press/merger-cleared"
    rows = [
        row(1, "competition.example", url=url, method=Method.SNIPPET),
        row(2, "competition.example", "refute", url=url, confidence="low"),
        row(3, "wire.example", tier=Tier.WIRE),
        row(4, "council.example"),
    ]
    result = counting(rows)
    assert (result.support_total, result.refute_total) == (pytest.approx(1.8), 0)
    assert result.rows[2].against == "weighed against support in the conflict rule: refute 1.0"
    assert result.conflict == (
        "Support counts 1.8 (wire.example 0.8; council.example 1.0). Against it, refute "
        "weighs 1.0 (competition.example 1.0, not counted toward the total: below the reader's "
        "sure bar (read with low confidence; medium needed)), more than the 0.9 a verdict "
        "allows against it (0.5 of 1.8). The conflict rule weighs every reading read, even one "
        "too unsure to count toward a total."
    )
    assert [(r.row_id, r.stance, r.weight, r.counted) for r in result.conflict_rows] == [
        (4, "support", 1.0, True),
        (3, "support", 0.8, True),
        (2, "refute", 1.0, False),
    ]


def test_when_both_sides_reach_the_score_the_conflict_names_both() -> None:
    rows = [
        row(1, "a.example"),
        row(2, "b.example", tier=Tier.WIRE),
        row(3, "c.example", "refute"),
        row(4, "d.example", "refute", tier=Tier.WIRE),
    ]
    result = counting(rows)
    assert result.conflict == (
        "Both sides reach the agreement score of 1.6: support 1.8 (a.example 1.0; "
        "b.example 0.8) and refute 1.8 (c.example 1.0; d.example 0.8)."
    )
    assert len(result.conflict_rows) == 4


def test_the_counted_rows_are_the_decisions_own_totals_and_outcome() -> None:
    url = "https://competition.example/press/merger-cleared"
    rows = [
        row(1, "competition.example", url=url, method=Method.SNIPPET),
        row(2, "competition.example", "refute", url=url, confidence="low"),
        row(3, "wire.example", tier=Tier.WIRE),
        row(4, "blog.example", "refute", tier=Tier.OTHER),
        row(5, "wire.example", tier=Tier.WIRE, stance_score=0.5),
        row(6, "council.example"),
    ]
    result = counting(rows)
    decision = decide_from_history(
        question=WINDOW,
        history=SearchHistory(evidence=[evidence_hit(r) for r in rows]),
        attempts=1,
        max_attempts=3,
        threshold=1.6,
        max_opposition=0.5,
        min_confidence="medium",
    )
    assert isinstance(decision, Final) and decision.result.reason == "conflicting"
    for side, total in (("support", decision.totals.support), ("refute", decision.totals.refute)):
        counted = [c for c in result.rows.values() if c.counted and c.stance == side]
        assert sum(c.weight for c in counted) == pytest.approx(total.total)


def test_an_unchecked_snippet_beside_its_read_page_says_the_page_was_read() -> None:
    url = "https://competition.example/press/merger-cleared"
    snippet = row(
        1,
        "competition.example",
        url=url,
        method=Method.SNIPPET,
        content_depth=ContentDepth.SNIPPET,
        verification_status=VerificationStatus.UNVERIFIED,
    )
    page = row(2, "competition.example", "neutral", url=url)
    result = counting([snippet, page, row(3, "wire.example", tier=Tier.WIRE)])
    assert label(result, 1) == (
        "Not counted: a lead, not read itself: its page was read, and the page's own reading stands"
    )
