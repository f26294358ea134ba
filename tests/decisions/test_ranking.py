"""A claim's best evidence per side: what counts before what does not, heavier and surer first,
one row of each publisher before a second, and the verdict unchanged while a side has no more
publishers than the limit."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from decisions.decide import compute_totals, decide_from_history
from decisions.ranking import top_per_side
from decisions.types import ClaimQuestion, EvidenceHit, SearchHistory

QUESTION = ClaimQuestion(
    text="The harbour bridge reopened to traffic in June 2024",
    timeframe_start=datetime(2024, 6, 1, tzinfo=UTC),
    timeframe_end=datetime(2024, 6, 30, tzinfo=UTC),
)
WEIGHTS = {"official": 1.0, "wire": 0.8, "trade": 0.6, "other": 0.4}
REOPENED = "The harbour bridge reopened to traffic on 14 June 2024 after two years of repairs."
STILL_SHUT = "The harbour bridge is still closed to cars, the council said on 20 June 2024."


def hit(
    domain: str,
    tier: str = "other",
    *,
    stance: str = "support",
    quote: str = REOPENED,
    page: str = "",
    **changes: object,
) -> EvidenceHit:
    base = EvidenceHit(
        url=f"https://{domain}/{page or 'bridge-reopens'}",
        domain=domain,
        tier=tier,
        weight=WEIGHTS[tier],
        stance=stance,
        quote=quote,
        stance_score=0.8,
        in_window=True,
        content_depth="full",
        confidence="high",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def top(hits: list[EvidenceHit], limit: int = 5) -> list[EvidenceHit]:
    return top_per_side(
        items=hits,
        hit_of=lambda h: h,
        question=QUESTION,
        min_confidence="medium",
        limit=limit,
    )


def urls(hits: list[EvidenceHit]) -> list[str]:
    return [h.url for h in hits]


def test_each_side_keeps_its_heaviest_sources_and_every_row_that_took_no_side() -> None:
    support = [
        hit("citynews.example"),
        hit("harbour.gov.example", "official"),
        hit("wire.example", "wire"),
        hit("shipping-weekly.example", "trade"),
    ]
    refute = [hit(f"blog{n}.example", stance="refute", quote=STILL_SHUT) for n in range(4)]
    background = [
        hit(f"guide{n}.example", stance="neutral", quote="The bridge opened in 1932.")
        for n in range(4)
    ]

    kept = top([*support, *refute, *background], limit=3)

    assert urls(kept) == urls([support[1], support[2], support[3], *refute[:3], *background])


def test_a_row_that_counts_ranks_above_a_heavier_one_that_does_not() -> None:
    unread = hit("harbour.gov.example", "official", read=False, content_depth="snippet")
    unsure = hit("wire.example", "wire", confidence="low")
    outside = hit("ports.gov.example", "official", in_window=False)
    counted = [hit("citynews.example"), hit("dailyharbour.example")]

    kept = top([unread, unsure, outside, *counted], limit=2)

    assert urls(kept) == urls(counted)


def test_a_reading_too_unsure_to_count_ranks_above_a_lead_and_keeps_the_lean() -> None:
    """The wire's page said it without the certainty to count; its search snippet, a lead,
    scored higher. The page reading is the wire's row, and the lean hint still sees it."""
    snippet = hit("wire.example", "wire", read=False, content_depth="snippet", stance_score=0.9)
    page = hit("wire.example", "wire", confidence="low", stance_score=0.5, page="story")
    leads = [
        hit(f"ministry{n}.gov.example", "official", read=False, content_depth="snippet")
        for n in range(3)
    ]
    rows = [snippet, page, *leads]

    kept = top(rows, limit=3)

    assert page in kept and snippet not in kept
    every = compute_totals(question=QUESTION, history=SearchHistory(evidence=kept), threshold=1.6)
    assert every.support.domains == ("wire.example",)


def test_a_publishers_second_row_waits_until_every_publisher_has_one() -> None:
    same_page = [
        hit("harbour.gov.example", "official", quote=f"{REOPENED} Sentence {n}.") for n in range(3)
    ]
    others = [hit("citynews.example"), hit("dailyharbour.example")]

    kept = top([*same_page, *others], limit=3)

    assert urls(kept) == urls([same_page[0], *others])


def test_a_reprint_is_its_original_publishers_second_row() -> None:
    wire = hit("wire.example", "wire")
    reprint = hit("citynews.example", "wire", syndicated_from="wire.example", weight=0.8)
    own = hit("dailyharbour.example")

    kept = top([wire, reprint, own], limit=2)

    assert urls(kept) == urls([wire, own])


def test_the_verdict_is_the_same_while_a_side_has_no_more_publishers_than_the_limit() -> None:
    rows = [
        hit("harbour.gov.example", "official", quote=f"{REOPENED} Part {n}.", page=f"p{n}")
        for n in range(4)
    ] + [hit("citynews.example", quote=f"{REOPENED} Part {n}.", page=f"p{n}") for n in range(4)]
    rows.append(hit("dailyharbour.example", stance="refute", quote=STILL_SHUT))

    every = SearchHistory(evidence=rows)
    limited = SearchHistory(evidence=top(rows, limit=2))

    def decide(history: SearchHistory) -> tuple[str, float, float]:
        result = decide_from_history(
            question=QUESTION, history=history, attempts=3, max_attempts=3, threshold=1.4
        )
        return result.status, result.totals.support.total, result.totals.refute.total

    assert len(limited.evidence) == 3
    assert decide(limited) == decide(every)
    assert compute_totals(question=QUESTION, history=limited, threshold=1.4).support.domains == (
        "harbour.gov.example",
        "citynews.example",
    )


def test_five_publishers_of_the_lightest_tier_still_reach_the_agreement_score() -> None:
    support = [hit(f"local{n}.example", page=f"p{n}") for n in range(8)]

    kept = top(support)
    totals = compute_totals(question=QUESTION, history=SearchHistory(evidence=kept), threshold=1.6)

    assert len(kept) == 5
    assert totals.support.total == 2.0
    assert totals.support.sufficient(1.6)


def test_of_two_rows_alike_otherwise_the_one_naming_more_of_the_claims_entities_ranks_first() -> (
    None
):
    vague = hit("portnews.example", entity_overlap=0.2, stance_score=0.9)
    named = hit("harbourtimes.example", entity_overlap=0.8, stance_score=0.8)
    assert top([vague, named], limit=2) == [vague, named]  # the order given is kept
    assert top([vague, named], limit=1) == [named]
