"""The weighed proposal every verdict carries: P(True), P(False), P(not decidable) from the claim
outcome model, what it proposes or where it leans, and the witnesses that moved it most; in the
result, the proof, the stored verdict, the API and the claim page."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.test import Client

from decisions.decide import decide_from_history
from decisions.types import Final, SearchHistory
from decisions.weighing import OutcomeModel, proposal_for
from tests.decisions.hits import OPEN, WINDOW, hit
from tests.factories import VerdictFactory

# Support pulls toward True, refutation toward False; the thresholds are the test's own.
MODEL = OutcomeModel(
    coefficients={
        "true": [-1.0, 4.0, -2.0, 0.0, 1.0, 0.0, 0.0, 0.0],
        "false": [-1.0, -2.0, 4.0, 0.0, 0.0, 1.0, 0.0, 0.0],
    },
    thresholds={"true": 0.8, "false": 0.8},
)


def test_strong_support_is_proposed_true_with_its_probability() -> None:
    hits = [hit("europa.eu", "official"), hit("reuters.com", "wire")]
    proposal = proposal_for(hits, question=WINDOW, model=MODEL)
    probabilities = proposal["probabilities"]
    assert sum(probabilities.values()) == pytest.approx(1.0, abs=1e-3)
    assert proposal["proposed"] == "true" and proposal["lean"] == "true"
    assert probabilities["true"] >= 0.8
    assert proposal["text"] == f"True, {probabilities['true']:.2f}"
    assert proposal["thresholds"] == {"true": 0.8, "false": 0.8}
    # Each publisher moved P(True) up, the official source most.
    assert proposal["moved"] == "true"
    assert [m["publisher"] for m in proposal["movers"]] == ["europa.eu", "reuters.com"]
    assert all(m["change"] > 0 for m in proposal["movers"])
    assert proposal["movers"][0]["text"].startswith(
        "europa.eu, which supports the claim: without it the chance of True would be "
    )
    assert proposal["movers"][0]["text"].endswith(" lower")
    assert "sure" not in proposal["movers"][0]["text"]
    assert {r["publisher"] for r in proposal["readings"]} == {"europa.eu", "reuters.com"}


def test_thin_evidence_leans_and_says_it_is_not_decided() -> None:
    proposal = proposal_for([hit("blog.example", "other", "refute")], question=OPEN, model=MODEL)
    p = proposal["probabilities"]
    assert proposal["proposed"] == "invalid"
    assert proposal["lean"] == "false" and p["false"] > p["true"]
    assert proposal["text"] == f"leans False, {p['false']:.2f}; not decided"
    assert proposal["moved"] == "false"


def test_no_readings_still_give_three_probabilities_and_no_movers() -> None:
    proposal = proposal_for([], question=OPEN, model=MODEL)
    assert set(proposal["probabilities"]) == {"true", "false", "invalid"}
    assert proposal["proposed"] == "invalid"
    assert proposal["movers"] == [] and proposal["readings"] == []
    # Nothing read: "not decidable" wins, and it leans nowhere.
    assert proposal["lean"] == "invalid"
    assert proposal["text"] == f"not decidable, {proposal['probabilities']['invalid']:.2f}"


def test_the_lean_goes_only_to_the_likeliest_outcome() -> None:
    weak = [replace(hit("blog.example", "other", "refute"), stance_score=0.05, confidence="low")]
    proposal = proposal_for(weak, question=OPEN, model=MODEL)
    p = proposal["probabilities"]
    assert p["invalid"] > max(p["true"], p["false"])
    assert (proposal["proposed"], proposal["lean"]) == ("invalid", "invalid")
    assert proposal["text"].startswith("not decidable")


def test_a_support_dated_outside_the_window_is_not_weighed() -> None:
    from tests.decisions.hits import OUTSIDE

    proposal = proposal_for(
        [hit("europa.eu", "official", when=OUTSIDE)], question=WINDOW, model=MODEL
    )
    assert proposal["readings"] == []


def test_every_final_result_carries_the_proposal_and_the_proof_tells_it() -> None:
    history = SearchHistory(
        evidence=[hit("europa.eu", "official"), hit("reuters.com", "wire")], queries=["q"]
    )
    decision = decide_from_history(
        question=WINDOW, history=history, attempts=1, max_attempts=4, threshold=1.6
    )
    assert isinstance(decision, Final)
    proposal = decision.result.proposal
    assert proposal is not None
    p = proposal["probabilities"]
    assert f"**Weighed together:** {proposal['text']}" in decision.result.proof
    assert f"True is {p['true']:.2f}, False {p['false']:.2f}" in decision.result.proof
    if proposal["movers"]:
        assert "**The sources that weighed most**" in decision.result.proof
    for word in ("witness", "sure)", "P(True)", "moved"):
        assert word not in decision.result.proof


MOVER = "factcheck.example (refutes, weight 0.8, read 0.90 sure): +0.31 to P(False)"


def _weighed(**changes: Any) -> dict[str, Any]:
    proposal = {
        "probabilities": {"true": 0.12, "false": 0.71, "invalid": 0.17},
        "proposed": "invalid",
        "lean": "false",
        "text": "leans False, 0.71; not decided",
        "thresholds": {"true": 0.8, "false": 0.8},
        "moved": "false",
        "movers": [
            {
                "publisher": "factcheck.example",
                "side": "refute",
                "url": "https://factcheck.example/a",
                "weight": 0.8,
                "probability": 0.9,
                "change": 0.31,
                "text": MOVER,
            }
        ],
        "readings": [],
    }
    return proposal | changes


@pytest.mark.django_db
def test_the_api_returns_the_probabilities_and_the_movers(api: Client) -> None:
    verdict = VerdictFactory.create(outcome="invalid", reason="insufficient", proposal=_weighed())
    body = api.get(f"/api/claims/{verdict.claim_id}").json()
    weighed = body["result"]["weighed"]
    assert weighed["probabilities"] == {"true": 0.12, "false": 0.71, "invalid": 0.17}
    assert weighed["text"] == "leans False, 0.71; not decided"
    assert weighed["movers"][0]["publisher"] == "factcheck.example"
    assert "readings" not in weighed


@pytest.mark.django_db
def test_a_verdict_stored_before_weighing_answers_null(api: Client) -> None:
    verdict = VerdictFactory.create(outcome="invalid", reason="insufficient", proposal=None)
    assert api.get(f"/api/claims/{verdict.claim_id}").json()["result"]["weighed"] is None


@pytest.mark.django_db
def test_the_claim_page_shows_the_lean_with_its_probability(editor_client: Client) -> None:
    verdict = VerdictFactory.create(outcome="invalid", reason="insufficient", proposal=_weighed())
    page = editor_client.get(f"/claims/{verdict.claim_id}/").content.decode()
    assert 'id="verdict-weighed"' in page
    assert "leans False, 0.71; not decided" in page
    assert "its chance of each outcome: True 0.12 · False 0.71 · not decidable 0.17" in page
    assert MOVER in page


def _weighed_with(model: OutcomeModel):
    """Run the decision with `model` as the shipped outcome model."""
    from unittest import mock

    return mock.patch("decisions.weighing.outcome_model", return_value=model)


def test_a_claim_short_of_the_counting_bar_is_decided_when_the_weighing_clears_its_threshold() -> (
    None
):
    # One official refutation: 1.0 of the 1.6 the counting rule needs, from one publisher.
    history = SearchHistory(evidence=[hit("europa.eu", "official", "refute")], queries=["q"] * 4)
    with _weighed_with(MODEL):
        searching = decide_from_history(
            question=OPEN, history=history, attempts=1, max_attempts=4, threshold=1.6
        )
        decision = decide_from_history(
            question=OPEN, history=history, attempts=4, max_attempts=4, threshold=1.6
        )
    # The weighing decides only once the search is over: it never cuts a search short.
    assert not isinstance(searching, Final)
    assert isinstance(decision, Final)
    result = decision.result
    assert (result.outcome, result.reason) == ("false", "weighed")
    assert result.proposal is not None and result.proposal["proposed"] == "false"
    assert [s.publisher for s in result.sources] == ["europa.eu"]
    assert "the weighed evidence makes it likely" in result.proof
    # The counted totals stay what the counting rule counted: 1.0, short of its 1.6.
    assert result.refute_total == pytest.approx(1.0)


def test_below_its_threshold_the_weighing_leaves_the_claim_invalid_with_its_lean() -> None:
    history = SearchHistory(evidence=[hit("blog.example", "other", "refute")], queries=["q"] * 4)
    with _weighed_with(MODEL):
        decision = decide_from_history(
            question=OPEN, history=history, attempts=4, max_attempts=4, threshold=1.6
        )
    assert isinstance(decision, Final)
    assert (decision.result.outcome, decision.result.reason) == ("invalid", "insufficient")
    proposal = decision.result.proposal
    assert proposal is not None and proposal["text"].startswith("leans False, ")


def test_a_weighed_verdicts_confidence_is_its_probability_at_medium() -> None:
    from decisions.confidence import fact_check_confidence

    confidence = fact_check_confidence(
        outcome="false",
        reason="weighed",
        support=0.0,
        refute=0.0,
        threshold=1.6,
        sources=[],
        proposal=_weighed(probabilities={"true": 0.05, "false": 0.86, "invalid": 0.09}),
    )
    assert (confidence.score, confidence.tier) == (0.86, "medium")
    assert confidence.note == "weighed, short of the counting bar"


def test_a_statement_that_names_none_of_the_claims_entities_weighs_apart() -> None:
    from dataclasses import replace

    from decisions.weighing import FEATURES, features, readings_of

    about = hit("europa.eu", "official", "refute")
    elsewhere = replace(hit("reuters.com", "wire", "refute"), entity_overlap=0.0)
    readings = readings_of([about, elsewhere], question=OPEN)
    assert [r.named for r in readings] == [1.0, 0.0]
    x = dict(zip(FEATURES, features(readings), strict=True))
    # Both refute; only the one that names the claim's entities counts as named.
    assert x["refute_strength"] == pytest.approx(1 - (1 - 0.8) * (1 - 0.64))
    assert x["refute_named"] == pytest.approx(0.8)
    assert x["support_named"] == 0.0


def test_readings_the_reader_was_unsure_of_lean_a_claim_and_never_decide_it() -> None:
    eager = OutcomeModel(coefficients=MODEL.coefficients, thresholds={"true": 0.34, "false": 0.34})
    unsure = [replace(hit("europa.eu", "official", "refute"), confidence="low")]
    proposal = proposal_for(unsure, question=OPEN, model=eager)
    assert proposal["probabilities"]["false"] >= 0.34
    assert (proposal["proposed"], proposal["lean"]) == ("invalid", "false")
    assert proposal["text"].startswith("leans False")

    sure = [replace(hit("europa.eu", "official", "refute"), confidence="medium")]
    assert proposal_for(sure, question=OPEN, model=eager)["proposed"] == "false"


def test_a_proposal_stands_on_a_counted_reading_of_its_own_side_whatever_its_gate() -> None:
    """No verdict from the weighed lean alone: behind the loosest gate, unsure readings that
    make False likely enough still only lean the claim."""
    loose = OutcomeModel(
        coefficients=MODEL.coefficients,
        thresholds={"true": 0.34, "false": 0.34},
        gates={"true": "none", "false": "none"},
    )
    unsure = [
        replace(hit(domain, tier, "refute"), confidence="low")
        for domain, tier in (("europa.eu", "official"), ("reuters.com", "wire"))
    ]
    proposal = proposal_for(unsure, question=OPEN, model=loose)
    assert proposal["probabilities"]["false"] >= 0.34
    assert (proposal["proposed"], proposal["lean"]) == ("invalid", "false")


@pytest.mark.parametrize(
    ("supports", "proposed"),
    [
        ([("europa.eu", "official")], "true"),  # an official source's own word
        ([("reuters.com", "wire")], "true"),  # a news agency's report
        ([("trade.example", "trade")], "invalid"),  # one trade publication alone
        ([("trade.example", "trade"), ("blog.example", "other")], "true"),  # two publishers
    ],
)
def test_a_true_needs_a_first_hand_source_or_two_independent_publishers(
    supports: list[tuple[str, str]], proposed: str
) -> None:
    eager = OutcomeModel(coefficients=MODEL.coefficients, thresholds={"true": 0.34, "false": 0.34})
    hits = [replace(hit(domain, tier), confidence="medium") for domain, tier in supports]
    proposal = proposal_for(hits, question=OPEN, model=eager)
    assert proposal["probabilities"]["true"] >= 0.34
    assert proposal["proposed"] == proposed
