"""One publisher, one statement, one side: which of a claim's readings stand aside before any
side is counted, so that a publisher never counts for both sides of one claim.

- A snippet and its page are one statement: where the page was read and took the other side,
  the page's reading stands and the snippet's stands aside (read or not). Where both read the
  same side, they are one reading of that side, counted once with the surer of the two.
- A publisher counts on at most one side: where its readings that pass the decision's rule take
  both sides, the side of its surest reading stands (a page over a snippet, then the reader's
  confidence, then its publisher's weight, then its score) and the other side's stand aside.

A reading set aside says why (`NotCounted.PAGE_STANDS`, `NotCounted.OTHER_SIDE`) and which
reading stands instead. Two addresses of one page and near copies are merged before this, when
the claim loop stores evidence (`Evidence.duplicate_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from decisions.types import SIDES, EvidenceHit, NotCounted

# `evidence.models.CONFIDENCE_RANK`, spelled here so that the weighing (and the outcome fit that
# imports it) needs no Django models.
_CONFIDENCE_RANK = {"low": 0, "medium": 1, "high": 2}


@dataclass(frozen=True)
class Aside:
    why: NotCounted
    stands: EvidenceHit
    """The reading that stands instead."""


def _is_page(hit: EvidenceHit) -> bool:
    return hit.read and hit.method != "snippet"


def surest(hit: EvidenceHit) -> tuple[int, int, float, float]:
    """How a publisher's readings rank against each other: a page over a snippet, then the
    reader's confidence, the publisher's weight and the reading's score."""
    return (
        int(_is_page(hit)),
        _CONFIDENCE_RANK.get(hit.confidence, 0),
        hit.weight,
        hit.stance_score,
    )


def set_aside(
    hits: Sequence[EvidenceHit], *, passes: Callable[[EvidenceHit], bool]
) -> dict[int, Aside]:
    """The readings that stand aside, by `id(hit)`. `passes` is the decision's own rule for a
    single reading (`decisions.decide.hit_counts`)."""
    aside: dict[int, Aside] = {}
    pages: dict[str, EvidenceHit] = {}
    for hit in hits:
        if _is_page(hit) and hit.stance in SIDES:
            current = pages.get(hit.url)
            if current is None or surest(hit) > surest(current):
                pages[hit.url] = hit
    for hit in hits:
        page = pages.get(hit.url)
        if (
            hit.method == "snippet"
            and hit.stance in SIDES
            and page is not None
            and (hit.stance != page.stance)
        ):
            aside[id(hit)] = Aside(NotCounted.PAGE_STANDS, page)
    best: dict[str, EvidenceHit] = {}
    standing = [h for h in hits if id(h) not in aside and passes(h)]
    for hit in standing:
        current = best.get(hit.publisher)
        if current is None or surest(hit) > surest(current):
            best[hit.publisher] = hit
    for hit in standing:
        chosen = best[hit.publisher]
        if hit.stance != chosen.stance:
            aside[id(hit)] = Aside(NotCounted.OTHER_SIDE, chosen)
    return aside
