"""A claim's best evidence: the one ranking that the decision and the claim page share.

A claim shows and weighs only its best `retention.max_per_side` rows of support and its best of
refutation; rows that took no side are background and all stay. Best, as an editor would rank
two rows of one side:

1. one that counts toward the verdict (`decide.hit_counts`: read where it was published, from a
   weighed publisher, as sure as `budgets.min_confidence`, and for support dated inside the
   claim's timeframe) over one that does not;
2. one read where it was published over a lead (a snippet not found on its page yet): a
   reading too unsure to count still weighs in the lean hint, a lead never does;
3. the heavier publisher (official, wire, trade, other; a reprint weighs what its original
   publisher weighs);
4. the surer stance reading;
5. dated inside the timeframe, then undated, then outside it;
6. the quote that names more of the claim's people, organisations and places (its entity
   overlap with the claim);
7. the higher stance score;
8. the fuller text read: a page over a snippet;
9. then the order given (the one stored first).

A side's top rows take each publisher's best row before any publisher's second: three quotes
from one page are one source, and the decision counts a publisher once per side anyway. So a
side with at most `max_per_side` publishers keeps each one's best row, which counts whenever
any of that publisher's rows does and is the heaviest of those, and its total and publishers
are what they were without the limit (and so is the lean hint's, which weighs every reading
that was read). Only a side with more publishers than that loses its
weakest ones, and then the ones kept are the heaviest: with the shipped weights (0.4 at least
for a source that counts at all), any four publishers reach the agreement score of 1.6, so the
limit of 5 takes sufficiency from no side that had it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from decisions.decide import hit_counts
from decisions.types import SIDES, ClaimQuestion, EvidenceHit
from evidence.models import CONFIDENCE_RANK, ContentDepth

T = TypeVar("T")

_WINDOW_ORDER: dict[bool | None, int] = {True: 0, None: 1, False: 2}
_DEPTH_RANK: dict[str, int] = {
    ContentDepth.FULL: 2,
    ContentDepth.PARTIAL: 1,
    ContentDepth.SNIPPET: 0,
}

Rank = tuple[bool, bool, float, int, int, float, float, int]


def evidence_rank(*, hit: EvidenceHit, question: ClaimQuestion, min_confidence: str) -> Rank:
    """The sort key of a hit among its side's: the best sorts first."""
    return (
        not hit_counts(hit=hit, question=question, min_confidence=min_confidence),
        not hit.read,
        -hit.weight,
        -CONFIDENCE_RANK.get(hit.confidence, 0),
        _WINDOW_ORDER[hit.in_window],
        -(hit.entity_overlap or 0.0),
        -hit.stance_score,
        -_DEPTH_RANK.get(hit.content_depth, 0),
    )


def top_per_side(
    *,
    items: Sequence[T],
    hit_of: Callable[[T], EvidenceHit],
    question: ClaimQuestion,
    min_confidence: str,
    limit: int,
) -> list[T]:
    """The items a claim shows and weighs, in the order given: every one that took no side,
    and the best `limit` of each side (each publisher's best first)."""
    hits = [hit_of(item) for item in items]
    kept: set[int] = set()
    for side in SIDES:
        ranked = sorted(
            (i for i, hit in enumerate(hits) if hit.stance == side),
            key=lambda i: (
                evidence_rank(hit=hits[i], question=question, min_confidence=min_confidence),
                i,
            ),
        )
        seen: set[str] = set()
        firsts: list[int] = []
        seconds: list[int] = []
        for i in ranked:
            (seconds if hits[i].publisher in seen else firsts).append(i)
            seen.add(hits[i].publisher)
        kept.update((firsts + seconds)[:limit])
    return [item for i, item in enumerate(items) if hits[i].stance not in SIDES or i in kept]
