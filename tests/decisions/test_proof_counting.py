"""The proof tells the decision's weighing: a source listed with a weight either counted in the
totals beside it or says why not, and a conflict names the readings it weighed with their
weights, those the totals leave out included."""

from __future__ import annotations

from dataclasses import replace

from decisions.decide import decide_from_history
from decisions.types import EvidenceHit, Final, NeedMoreSearch, SearchHistory
from tests.decisions.hits import COUNTING_ONLY, WINDOW, hit


def _decide(hits: list[EvidenceHit], *, attempts: int = 3) -> Final | NeedMoreSearch:
    return decide_from_history(
        question=WINDOW,
        history=SearchHistory(evidence=hits),
        attempts=attempts,
        max_attempts=3,
        threshold=1.6,
        max_opposition=0.5,
        min_confidence="medium",
        model=COUNTING_ONLY,
    )


SUPPORT = [hit("europa.eu", "official"), hit("reuters.com", "wire")]
UNSURE_REFUTE = replace(hit("agency.example", "official", "refute"), confidence="low")


def test_a_conflict_from_readings_too_unsure_to_count_says_so_with_their_weights() -> None:
    decision = _decide([*SUPPORT, UNSURE_REFUTE])
    assert isinstance(decision, Final)
    proof = decision.result.proof
    assert "**Verdict: Invalid**, because weighty sources contradict each other." in proof
    assert "Support 1.8 from 2 publisher(s), refute 0.0 from 0 publisher(s)" in proof
    assert "Not counted toward either total: 1 refuting reading below the sure bar." in proof
    assert (
        "**Why they conflict:** Support counts 1.8 (europa.eu 1.0; reuters.com 0.8). Against "
        "it, refute weighs 1.0 (agency.example 1.0, not counted toward the total: below the "
        "reader's sure bar (read with low confidence; medium needed)), more than the 0.9 a "
        "verdict allows against it (0.5 of 1.8)."
    ) in proof
    # The unsure reading is listed, and says it did not count instead of a weight.
    assert "official, refute, event 2024-08-01; not counted: below the reader's sure bar" in proof


def test_an_invalid_verdicts_sources_say_which_did_not_count() -> None:
    decision = _decide(
        [
            hit("europa.eu", "official"),
            replace(hit("blog.example", "other", "refute"), confidence="low"),
        ]
    )
    assert isinstance(decision, Final)
    assert decision.result.reason == "insufficient"
    proof = decision.result.proof
    assert "refute 0.0 from 0 publisher(s)" in proof
    sources = [line for line in proof.splitlines() if line[:1].isdigit()]
    blog = next(line for line in sources if "blog.example" in line)
    assert (
        "not counted: below the reader's sure bar (read with low confidence; medium needed)" in blog
    )
    # A weight is shown only where it counted.
    assert "weight" not in blog
    europa = next(line for line in sources if "europa.eu" in line and "weight 1.0" in line)
    assert "not counted" not in europa


def test_a_page_and_its_snippet_on_one_side_tell_the_pages_reason() -> None:
    page = replace(UNSURE_REFUTE, method="page")
    snippet = replace(UNSURE_REFUTE, method="snippet", read=False, confidence="high")
    decision = _decide([*SUPPORT, snippet, page])
    assert isinstance(decision, Final)
    lines = decision.result.proof.splitlines()
    agency = [line for line in lines if line[:1].isdigit() and "agency" in line]
    assert agency
    assert all("not counted: below the reader's sure bar" in line for line in agency)
    assert not any("a lead, not read" in line for line in agency)
