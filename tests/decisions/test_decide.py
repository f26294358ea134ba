"""The decision module as a table: one row per situation, with the expected outcome and reason."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from decisions.decide import decide_from_history
from decisions.proof import check_citations, render_proof
from decisions.types import ClaimQuestion, EvidenceHit, Final, Lean, NeedMoreSearch, SearchHistory

WINDOW = ClaimQuestion(
    text="The EU AI Act entered into force between 2024-07-01 and 2024-08-31",
    timeframe_start=datetime(2024, 7, 1, tzinfo=UTC),
    timeframe_end=datetime(2024, 8, 31, tzinfo=UTC),
)
OPEN = ClaimQuestion(text="The EU AI Act entered into force in 2024")
BY_END = ClaimQuestion(
    text="The EU AI Act entered into force by the end of August 2024",
    timeframe_end=datetime(2024, 8, 31, tzinfo=UTC),
)
INSIDE = datetime(2024, 8, 1, tzinfo=UTC)
OUTSIDE = datetime(2024, 12, 1, tzinfo=UTC)

WEIGHTS = {"official": 1.0, "wire": 0.8, "trade": 0.6, "other": 0.4, "social": 0.0}


def hit(
    domain: str, tier: str, stance: str = "support", *, when: datetime | None = INSIDE
) -> EvidenceHit:
    in_window = None if when is None else WINDOW.timeframe_start <= when <= WINDOW.timeframe_end  # type: ignore[operator]
    return EvidenceHit(
        url=f"https://{domain}/{stance}/{tier}",
        domain=domain,
        tier=tier,
        weight=WEIGHTS[tier],
        stance=stance,
        title=f"{domain} report",
        quote=f"{domain} says so",
        stance_score=0.8,
        event_at=when,
        in_window=in_window,
    )


def hit_for(question: ClaimQuestion, domain: str, tier: str, *, when: datetime) -> EvidenceHit:
    """A supporting hit whose in_window is judged against `question`'s own timeframe."""
    inside = (question.timeframe_start is None or when >= question.timeframe_start) and (
        question.timeframe_end is None or when <= question.timeframe_end
    )
    return EvidenceHit(
        url=f"https://{domain}/",
        domain=domain,
        tier=tier,
        weight=WEIGHTS[tier],
        stance="support",
        event_at=when,
        in_window=inside,
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


LEAN = Lean(score=0.4, ratio=2.0)


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


@pytest.mark.parametrize("row", ROWS, ids=[r.situation for r in ROWS])
def test_the_decision_table(row: Row) -> None:
    history = SearchHistory(evidence=row.hits, queries=["q"] * row.attempts, pages_visited=2)
    decision = decide_from_history(
        question=row.question,
        history=history,
        attempts=row.attempts,
        max_attempts=10,
        threshold=1.6,
        lean=row.lean,
        max_opposition=row.max_opposition,
        min_confidence=row.min_confidence,
    )
    if row.expected == "need_more_search":
        assert isinstance(decision, NeedMoreSearch)
        return
    assert isinstance(decision, Final)
    verdict, _, leans = row.expected.partition("~")
    outcome, reason = verdict.split("/")
    assert (decision.result.outcome, decision.result.reason) == (outcome, reason)
    assert (decision.result.lean.outcome if decision.result.lean else "") == leans


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
        question=WINDOW, history=history, attempts=3, max_attempts=10, threshold=1.6, final=True
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


def test_the_rendered_proof_shows_script_tags_as_text() -> None:
    html = render_proof('**Claim:** <script>alert("x")</script> and [link](javascript:alert(1))')
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "javascript:" not in html


def test_an_llm_proof_citing_unknown_sources_is_refused() -> None:
    from decisions.types import Source
    from integrations.llm import LLMError

    sources = [Source(url="https://europa.eu/a", title="A", pub_date=None, excerpt="x")]
    check_citations("As [1] says, see https://europa.eu/a.", sources=sources)
    with pytest.raises(LLMError):
        check_citations("As [2] says.", sources=sources)
    with pytest.raises(LLMError):
        check_citations("See https://elsewhere.example/b", sources=sources)


def test_with_an_llm_configured_the_proof_is_written_by_it_and_may_cite_only_its_sources(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from integrations.llm import LLMError, llm_mock
    from tests.evidence.factories import use_config

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    use_config(
        settings, tmp_path, "llm:\n  model: openai/gpt-4o-mini\n  api_key_env: OPENAI_API_KEY\n"
    )
    hits = [hit("europa.eu", "official"), hit("reuters.com", "wire")]
    history = SearchHistory(evidence=hits, queries=["q"], pages_visited=2)

    def decide() -> Any:
        return decide_from_history(
            question=WINDOW, history=history, attempts=1, max_attempts=10, threshold=1.6
        )

    with llm_mock(["The Commission's notice [1] and Reuters [2] both date it to 1 August."]):
        decision = decide()
    assert isinstance(decision, Final)
    assert decision.result.proof.startswith("The Commission's notice [1]")
    with llm_mock(["As a blog [7] says."]), pytest.raises(LLMError) as caught:
        decide()
    assert caught.value.kind == "bad_output"
