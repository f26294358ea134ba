"""The evaluation measures what the outcome model would propose from each claim's readings."""

from __future__ import annotations

import pytest

from decisions.weighing import OutcomeModel
from evaluation import weighed
from evaluation.runner import ClaimResult

# A model that proposes True on strong support and False on strong refutation.
MODEL = OutcomeModel(
    coefficients={
        "true": [-2.0, 6.0, -6.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "false": [-2.0, -6.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    },
    thresholds={"true": 0.7, "false": 0.7},
)
NAMES = {"true": "SUPPORTS", "false": "REFUTES", "invalid": "NOT_ENOUGH_INFO"}
LABELS = ["SUPPORTS", "REFUTES", "NOT_ENOUGH_INFO"]


def _reading(side: str, publisher: str, *, sure: bool = True) -> dict[str, object]:
    return {
        "side": side,
        "publisher": publisher,
        "weight": 1.0,
        "probability": 0.95,
        "url": f"https://{publisher}/a",
        "sure": sure,
    }


def _claim(key: str, gold: str, readings: list[dict[str, object]]) -> ClaimResult:
    return ClaimResult(
        key=key,
        text=f"claim {key}",
        gold=gold,
        gold_label=NAMES[gold],
        predicted="invalid",
        status="decided",
        readings=readings,
    )


def test_the_weighed_proposal_is_scored_with_its_coverage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(weighed, "outcome_model", lambda: MODEL)
    results = [
        _claim("1", "true", [_reading("support", "a.example"), _reading("support", "b.example")]),
        _claim("2", "false", [_reading("refute", "c.example")]),
        _claim("3", "true", [_reading("refute", "d.example")]),
        _claim("4", "invalid", []),
    ]
    report = weighed.weighed_report(results, NAMES, LABELS)
    assert [p["proposed"] for p in report["proposals"]] == ["true", "false", "false", "invalid"]
    assert report["coverage"] == 0.75
    assert report["decisive_precision"] == {"true": 1.0, "false": 0.5}
    assert abs(sum(report["proposals"][0]["probabilities"].values()) - 1.0) < 1e-3
    assert "coverage 0.750" in weighed.weighed_line(report)


def test_the_weighed_proposal_asks_what_the_product_asks_of_a_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unsure refutations lean a claim and never decide it, whatever gate the model asks."""
    monkeypatch.setattr(weighed, "outcome_model", lambda: MODEL)
    unsure = [_claim("1", "false", [_reading("refute", "c.example", sure=False)])]
    assert weighed.weighed_report(unsure, NAMES, LABELS)["proposals"][0]["proposed"] == "invalid"
    two = [
        _claim(
            "2",
            "false",
            [
                _reading("refute", "c.example", sure=False),
                _reading("refute", "d.example", sure=False),
            ],
        )
    ]
    assert weighed.weighed_report(two, NAMES, LABELS)["proposals"][0]["proposed"] == "invalid"
    lenient = OutcomeModel(
        MODEL.coefficients, MODEL.thresholds, {"true": "sure", "false": "sure_or_two"}
    )
    monkeypatch.setattr(weighed, "outcome_model", lambda: lenient)
    # The floor stands under every gate: a False needs one refutation read as sure.
    assert weighed.weighed_report(two, NAMES, LABELS)["proposals"][0]["proposed"] == "invalid"
    assert weighed.weighed_report(unsure, NAMES, LABELS)["proposals"][0]["proposed"] == "invalid"
    counted = [_claim("3", "false", [_reading("refute", "c.example")])]
    assert weighed.weighed_report(counted, NAMES, LABELS)["proposals"][0]["proposed"] == "false"
