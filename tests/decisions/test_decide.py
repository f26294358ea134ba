"""The decision module as a table: one row per situation, with the expected outcome and reason.
The table is the counting rule's (an outcome model that proposes nothing); what the shipped
outcome model proposes short of the counting bar is the second table. What a final result holds
is in test_decide_result.py, how its proof is written in test_decide_proof.py."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from decisions.decide import decide_from_history
from decisions.types import ClaimQuestion, EvidenceHit, Final, Lean, NeedMoreSearch, SearchHistory
from decisions.weighing import OutcomeModel
from tests.decisions.hits import (
    BY_END,
    COUNTING_ONLY,
    LEAN,
    OPEN,
    OUTSIDE,
    WINDOW,
    hit,
    hit_for,
)


@dataclass
class Row:
    situation: str
    question: ClaimQuestion
    hits: list[EvidenceHit]
    attempts: int
    expected: str  # "need_more_search" or "<outcome>/<reason>", "~<outcome>" for a lean hint
    lean: Lean | None = None
    max_opposition: float | None = None
    min_confidence: str = "low"


ROWS = [
    Row(
        "two agreeing officials",
        WINDOW,
        [hit("europa.eu", "official"), hit("consilium.europa.eu.example", "official")],
        1,
        "true/sufficient",
    ),
    Row(
        "one official only, attempts left",
        WINDOW,
        [hit("europa.eu", "official")],
        1,
        "need_more_search",
    ),
    Row(
        "one official only, attempts spent",
        WINDOW,
        [hit("europa.eu", "official")],
        10,
        "invalid/insufficient",
    ),
    Row(
        "wire + trade reach 1.4 only",
        WINDOW,
        [hit("reuters.com", "wire"), hit("politico.eu", "trade")],
        10,
        "invalid/insufficient",
    ),
    Row(
        "official + wire reach 1.8",
        WINDOW,
        [hit("europa.eu", "official"), hit("reuters.com", "wire")],
        2,
        "true/sufficient",
    ),
    Row(
        "agreeing sources outside the window",
        WINDOW,
        [hit("europa.eu", "official", when=OUTSIDE), hit("reuters.com", "wire", when=OUTSIDE)],
        10,
        "invalid/insufficient",
    ),
    Row(
        "undated support does not count for a timed claim",
        WINDOW,
        [hit("europa.eu", "official", when=None), hit("reuters.com", "wire", when=None)],
        10,
        "invalid/insufficient",
    ),
    Row(
        "undated support counts when the claim has no timeframe",
        OPEN,
        [hit("europa.eu", "official", when=None), hit("reuters.com", "wire", when=None)],
        1,
        "true/sufficient",
    ),
    Row(
        "two refuting sources dated elsewhere",
        WINDOW,
        [
            hit("europa.eu", "official", "refute", when=OUTSIDE),
            hit("apnews.com", "wire", "refute", when=OUTSIDE),
        ],
        1,
        "false/sufficient",
    ),
    Row(
        "support and refute both strong",
        WINDOW,
        [
            hit("europa.eu", "official"),
            hit("reuters.com", "wire"),
            hit("gov.example.gov", "official", "refute"),
            hit("apnews.com", "wire", "refute"),
        ],
        1,
        "invalid/conflicting",
    ),
    Row(
        "refute sufficient, support weak",
        WINDOW,
        [
            hit("blog.example", "other"),
            hit("gov.example.gov", "official", "refute"),
            hit("apnews.com", "wire", "refute"),
        ],
        1,
        "false/sufficient",
    ),
    Row(
        "same domain twice counts once",
        WINDOW,
        [hit("europa.eu", "official"), hit("europa.eu", "official")],
        10,
        "invalid/insufficient",
    ),
    Row(
        "social only",
        WINDOW,
        [hit("x.com", "social"), hit("facebook.com", "social"), hit("reddit.com", "social")],
        10,
        "invalid/no_sources",
    ),
    Row(
        "social adds nothing to one official",
        WINDOW,
        [hit("europa.eu", "official"), hit("x.com", "social")],
        10,
        "invalid/insufficient",
    ),
    Row(
        "neutral evidence is not a side",
        WINDOW,
        [hit("europa.eu", "official", "neutral"), hit("reuters.com", "wire", "neutral")],
        10,
        "invalid/no_sources",
    ),
    Row(
        "undated support counts when the timeframe only has an end",
        BY_END,
        [hit("europa.eu", "official", when=None), hit("reuters.com", "wire", when=None)],
        1,
        "true/sufficient",
    ),
    Row(
        "support dated after the end does not count",
        BY_END,
        [
            hit_for(BY_END, "europa.eu", "official", when=OUTSIDE),
            hit_for(BY_END, "reuters.com", "wire", when=OUTSIDE),
        ],
        10,
        "invalid/insufficient",
    ),
    Row("no evidence after max attempts", WINDOW, [], 10, "invalid/no_sources"),
    Row("no evidence with attempts left", WINDOW, [], 3, "need_more_search"),
    # A lean is a hint on an Invalid verdict, only once the search is over, with a clear lead.
    Row(
        "lean: one official only, attempts spent",
        WINDOW,
        [hit("europa.eu", "official")],
        10,
        "invalid/insufficient~true",
        LEAN,
    ),
    Row(
        "lean: one official only, attempts left",
        WINDOW,
        [hit("europa.eu", "official")],
        1,
        "need_more_search",
        LEAN,
    ),
    Row(
        "lean: refutation twice the support",
        OPEN,
        [
            hit("reuters.com", "wire", "refute", when=None),
            hit("blog.example", "other", when=None),
        ],
        10,
        "invalid/insufficient~false",
        LEAN,
    ),
    Row(
        "lean: a lead under twice the other side is no lean",
        OPEN,
        [
            hit("politico.eu", "trade", when=None),
            hit("blog.example", "other", "refute", when=None),
        ],
        10,
        "invalid/insufficient",
        LEAN,
    ),
    Row(
        "lean: equal sides are no lean",
        OPEN,
        [
            hit("news.example", "other", when=None),
            hit("blog.example", "other", "refute", when=None),
        ],
        10,
        "invalid/insufficient",
        LEAN,
    ),
    Row(
        "lean: support outside the window does not lean",
        WINDOW,
        [hit("europa.eu", "official", when=OUTSIDE)],
        10,
        "invalid/insufficient",
        LEAN,
    ),
    Row(
        "lean: below the lean score",
        OPEN,
        [hit("reuters.com", "wire", when=None)],
        10,
        "invalid/insufficient",
        Lean(score=1.0),
    ),
    Row(
        "a lean never overrides sufficiency, nor hints on a verdict",
        WINDOW,
        [hit("europa.eu", "official"), hit("reuters.com", "wire")],
        10,
        "true/sufficient",
        LEAN,
    ),
    Row(
        "lean: a social post alone weighs nothing",
        OPEN,
        [hit("chirper.example", "social", when=None)],
        10,
        "invalid/no_sources",
        LEAN,
    ),
    # Only what was read counts, once per publisher.
    Row(
        "unread snippets are leads, not evidence",
        WINDOW,
        [
            replace(hit("europa.eu", "official"), read=False),
            replace(hit("reuters.com", "wire"), read=False),
        ],
        10,
        "invalid/no_sources",
    ),
    Row(
        "one read page and one unread snippet",
        WINDOW,
        [hit("europa.eu", "official"), replace(hit("reuters.com", "wire"), read=False)],
        10,
        "invalid/insufficient",
    ),
    Row(
        "a wire story reprinted by two outlets is one source",
        OPEN,
        [
            replace(hit("herald.example", "wire", when=None), syndicated_from="apnews.com"),
            replace(hit("courier.example", "wire", when=None), syndicated_from="apnews.com"),
        ],
        10,
        "invalid/insufficient",
    ),
    Row(
        "the original and an independent report are two sources",
        OPEN,
        [
            hit("apnews.com", "wire", when=None),
            replace(hit("courier.example", "wire", when=None), syndicated_from="apnews.com"),
            hit("europa.eu", "official", when=None),
        ],
        1,
        "true/sufficient",
    ),
    # Readings the stance reader was unsure of never decide; they only lean.
    Row(
        "two agreeing officials read with low confidence",
        OPEN,
        [
            replace(hit("europa.eu", "official", when=None), confidence="low"),
            replace(hit("reuters.com", "wire", when=None), confidence="low"),
        ],
        10,
        "invalid/insufficient~true",
        LEAN,
        None,
        "medium",
    ),
    Row(
        "two agreeing officials read with medium confidence",
        OPEN,
        [
            replace(hit("europa.eu", "official", when=None), confidence="medium"),
            replace(hit("reuters.com", "wire", when=None), confidence="high"),
        ],
        1,
        "true/sufficient",
        LEAN,
        None,
        "medium",
    ),
    Row(
        "an unsure refutation still weighs against a sure verdict",
        OPEN,
        [
            hit("europa.eu", "official", when=None),
            hit("reuters.com", "wire", when=None),
            replace(hit("gov.example", "official", "refute", when=None), confidence="low"),
        ],
        1,
        "invalid/conflicting",
        None,
        0.5,
        "medium",
    ),
    # Opposition: a sufficient side with much counted against it is a conflict.
    Row(
        "sufficient support against half its weight in refutation",
        OPEN,
        [
            hit("europa.eu", "official", when=None),
            hit("reuters.com", "wire", when=None),
            hit("politico.eu", "trade", "refute", when=None),
            hit("blog.example", "other", "refute", when=None),
        ],
        1,
        "invalid/conflicting",
        None,
        0.5,
    ),
    Row(
        "sufficient refutation against a little support",
        OPEN,
        [
            hit("europa.eu", "official", "refute", when=None),
            hit("reuters.com", "wire", "refute", when=None),
            hit("blog.example", "other", when=None),
        ],
        1,
        "false/sufficient",
        None,
        0.5,
    ),
]


def _decide(row: Row, model: OutcomeModel | None) -> Final | NeedMoreSearch:
    history = SearchHistory(evidence=row.hits, queries=["q"] * row.attempts, pages_visited=2)
    return decide_from_history(
        question=row.question,
        history=history,
        attempts=row.attempts,
        max_attempts=10,
        threshold=1.6,
        lean=row.lean,
        max_opposition=row.max_opposition,
        min_confidence=row.min_confidence,
        model=model,
    )


@pytest.mark.parametrize("row", ROWS, ids=[r.situation for r in ROWS])
def test_the_decision_table(row: Row) -> None:
    decision = _decide(row, COUNTING_ONLY)
    if row.expected == "need_more_search":
        assert isinstance(decision, NeedMoreSearch)
        return
    assert isinstance(decision, Final)
    verdict, _, leans = row.expected.partition("~")
    outcome, reason = verdict.split("/")
    assert (decision.result.outcome, decision.result.reason) == (outcome, reason)
    assert (decision.result.lean.outcome if decision.result.lean else "") == leans


# What the shipped outcome model proposes once the search is over, short of the counting bar:
# a True stands on a sure support from an official or wire source (or from two publishers), a
# False on a sure refutation; anything less stays a hint.
WEIGHED_ROWS = [
    Row("one official page, sure", WINDOW, [hit("europa.eu", "official")], 10, "true/weighed"),
    Row("one wire story, sure", OPEN, [hit("reuters.com", "wire", when=None)], 10, "true/weighed"),
    Row(
        "one trade page alone is not enough",
        OPEN,
        [hit("politico.eu", "trade", when=None)],
        10,
        "invalid/insufficient",
    ),
    Row(
        "one official page read unsure is a hint",
        WINDOW,
        [replace(hit("europa.eu", "official"), confidence="low")],
        10,
        "invalid/insufficient",
    ),
    Row(
        "one official page read as refuting, sure",
        OPEN,
        [hit("europa.eu", "official", "refute", when=None)],
        10,
        "false/weighed",
    ),
]


@pytest.mark.parametrize("row", WEIGHED_ROWS, ids=[r.situation for r in WEIGHED_ROWS])
def test_the_shipped_model_decides_on_counted_readings_only(row: Row) -> None:
    decision = _decide(replace(row, min_confidence="medium"), None)
    assert isinstance(decision, Final)
    outcome, reason = row.expected.split("/")
    assert (decision.result.outcome, decision.result.reason) == (outcome, reason)
