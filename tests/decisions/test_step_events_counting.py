"""The timeline's lines tell the decision's weighing: a reading shown with a weight says when it
cannot count and why, and a decision line names the publishers counted, what was left out and
why the sides conflict."""

from __future__ import annotations

from dataclasses import replace

from decisions.decide import decide_from_history
from decisions.step_events import decision_event, evidence_event
from decisions.types import EvidenceHit, Final, NeedMoreSearch, SearchHistory
from evidence.models import ContentDepth, Evidence, Method
from tests.decisions.hits import WINDOW, hit


def _decide(hits: list[EvidenceHit], *, attempts: int = 3) -> Final | NeedMoreSearch:
    return decide_from_history(
        question=WINDOW,
        history=SearchHistory(evidence=hits),
        attempts=attempts,
        max_attempts=3,
        threshold=1.6,
        max_opposition=0.5,
        min_confidence="medium",
    )


SUPPORT = [hit("europa.eu", "official"), hit("reuters.com", "wire")]
UNSURE_REFUTE = replace(hit("agency.example", "official", "refute"), confidence="low")


def test_the_decision_line_names_what_counted_and_what_did_not() -> None:
    decision = _decide([hit("europa.eu", "official"), UNSURE_REFUTE], attempts=1)
    assert isinstance(decision, NeedMoreSearch)
    event = decision_event(run=1, attempt=1, decision=decision, threshold=1.6)
    assert event.message == (
        "Support 1.0 (europa.eu 1.0) / refute 0.0 of 1.6: search again "
        "(not counted: 1 refuting reading below the sure bar)"
    )
    assert event.payload["left_out"] == "1 refuting reading below the sure bar"
    assert event.payload["conflict"] == ""


def test_the_decision_line_of_a_conflict_says_why() -> None:
    decision = _decide([*SUPPORT, UNSURE_REFUTE])
    event = decision_event(run=1, attempt=3, decision=decision, threshold=1.6)
    assert event.message.startswith(
        "Support 1.8 (europa.eu 1.0, reuters.com 0.8) / refute 0.0 of 1.6: final "
        "(not counted: 1 refuting reading below the sure bar). The sides conflict: Support counts"
    )
    assert "refute weighs 1.0" in event.payload["conflict"]


def _row(**fields: object) -> Evidence:
    values: dict[str, object] = {
        "url": "https://stats.example/jan",
        "domain": "stats.example",
        "tier": "official",
        "weight": 1.0,
        "stance": "refute",
        "method": Method.MODEL,
        "content_depth": ContentDepth.FULL,
        "confidence": "high",
        **fields,
    }
    return Evidence(pk=1, **values)


def test_a_reading_line_says_when_it_cannot_count_and_why() -> None:
    unsure = evidence_event(
        run=1, row=_row(confidence="low"), question=WINDOW, min_confidence="medium"
    )
    assert unsure.message == (
        "Refutes: stats.example (official, 1.0, not counted: below the reader's sure bar "
        "(read with low confidence; medium needed))"
    )
    assert unsure.payload["not_counted"].startswith("below the reader's sure bar")
    sure = evidence_event(run=1, row=_row(), question=WINDOW, min_confidence="medium")
    assert sure.message == "Refutes: stats.example (official, 1.0)"
    assert sure.payload["not_counted"] == ""
