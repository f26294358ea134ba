"""What a final decision holds: the AgentResult shape, the caller's threshold, a lean as a hint,
an early end, and which sources are counted for the verdict and which are listed apart."""

from __future__ import annotations

import pytest

from decisions.decide import decide_from_history
from decisions.types import Final, SearchHistory
from tests.decisions.hits import COUNTING_ONLY, LEAN, OPEN, OUTSIDE, WINDOW, hit


def test_a_final_result_has_the_agent_result_shape() -> None:
    hits = [
        hit("europa.eu", "official"),
        hit("reuters.com", "wire"),
        hit("blog.example", "other", "refute"),
    ]
    history = SearchHistory(evidence=hits, queries=["a", "b"], pages_visited=3)
    decision = decide_from_history(
        question=WINDOW, history=history, attempts=2, max_attempts=10, threshold=1.6
    )
    assert isinstance(decision, Final)
    result = decision.result
    assert result.outcome == "true"
    assert result.support_total == pytest.approx(1.8)
    assert result.refute_total == pytest.approx(0.4)
    assert result.debug["total_queries"] == 2
    assert result.debug["total_pages_visited"] == 3
    assert [s.url for s in result.sources][:2] == [
        "https://europa.eu/support/official",
        "https://reuters.com/support/wire",
    ]
    first = result.sources[0]
    assert (
        first.pub_date is None
        and first.excerpt == "europa.eu says so"
        and first.title == "europa.eu report"
    )
    assert "**Verdict: True**" in result.proof
    assert "https://reuters.com/support/wire" in result.proof


def test_the_threshold_comes_from_the_caller() -> None:
    hits = [hit("reuters.com", "wire"), hit("politico.eu", "trade")]
    history = SearchHistory(evidence=hits)
    lenient = decide_from_history(
        question=WINDOW, history=history, attempts=1, max_attempts=10, threshold=1.4
    )
    assert isinstance(lenient, Final) and lenient.result.outcome == "true"


def test_a_lean_is_a_hint_in_the_proof_never_the_outcome() -> None:
    history = SearchHistory(evidence=[hit("blog.example", "other")], queries=["q"] * 10)
    decision = decide_from_history(
        question=WINDOW, history=history, attempts=10, max_attempts=10, threshold=1.6, lean=LEAN
    )
    assert isinstance(decision, Final)
    result = decision.result
    assert (result.outcome, result.reason) == ("invalid", "insufficient")
    assert result.lean is not None
    assert result.lean.text == "leans True: 0.4 from one other site (blog.example)"
    assert result.lean.as_json()["sources"] == ["blog.example"]
    assert "**Verdict: Invalid**" in result.proof
    assert "leans True: 0.4 from one other site" in result.proof
    assert "not a verdict" in result.proof


def test_the_search_can_end_early_when_it_stops_paying() -> None:
    history = SearchHistory(evidence=[hit("europa.eu", "official")], queries=["q"] * 3)
    decision = decide_from_history(
        question=WINDOW,
        history=history,
        attempts=3,
        max_attempts=10,
        threshold=1.6,
        final=True,
        model=COUNTING_ONLY,
    )
    assert isinstance(decision, Final)
    assert decision.result.outcome == "invalid"


def test_a_verdicts_sources_are_its_deciding_side_and_the_rest_is_listed_apart() -> None:
    hits = [
        hit("europa.eu", "official"),
        hit("reuters.com", "wire"),
        hit("blog.example", "other", "refute"),
        hit("politico.eu", "trade", "neutral"),
        hit("news.example", "other", when=OUTSIDE),
    ]
    decision = decide_from_history(
        question=WINDOW,
        history=SearchHistory(evidence=hits, queries=["q"]),
        attempts=1,
        max_attempts=10,
        threshold=1.6,
    )
    assert isinstance(decision, Final) and decision.result.outcome == "true"
    result = decision.result
    assert [s.publisher for s in result.sources] == ["europa.eu", "reuters.com"]
    assert {s.stance for s in result.sources} == {"support"}
    apart = {s.publisher: s.stance for s in result.unsided}
    assert apart == {"blog.example": "refute", "politico.eu": "no side", "news.example": "support"}
    assert "**Sources that support the claim**" in result.proof
    assert "**Also read, not counted**" in result.proof
    assert "No sources found" not in result.proof


def test_a_conflict_lists_both_sides() -> None:
    hits = [
        hit("europa.eu", "official", when=None),
        hit("reuters.com", "wire", when=None),
        hit("gov.example", "official", "refute", when=None),
        hit("afp.com", "wire", "refute", when=None),
    ]
    decision = decide_from_history(
        question=OPEN,
        history=SearchHistory(evidence=hits),
        attempts=1,
        max_attempts=10,
        threshold=1.6,
    )
    assert isinstance(decision, Final)
    assert decision.result.reason == "conflicting"
    assert {s.stance for s in decision.result.sources} == {"support", "refute"}


def test_no_sources_is_said_only_when_nothing_was_read() -> None:
    decision = decide_from_history(
        question=OPEN, history=SearchHistory(), attempts=10, max_attempts=10, threshold=1.6
    )
    assert isinstance(decision, Final)
    assert "No sources found." in decision.result.proof
    neutral = decide_from_history(
        question=OPEN,
        history=SearchHistory(evidence=[hit("politico.eu", "trade", "neutral", when=None)]),
        attempts=10,
        max_attempts=10,
        threshold=1.6,
    )
    assert isinstance(neutral, Final)
    assert neutral.result.reason == "no_sources"
    assert "No sources found." not in neutral.result.proof
    assert [s.stance for s in neutral.result.unsided] == ["no side"]
