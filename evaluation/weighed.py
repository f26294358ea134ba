"""What the claim outcome model (`decisions.weighing`) proposes for each evaluated claim, from
the readings the pipeline gathered, measured against the labels: coverage, decisive precision
and macro-F1, next to the pipeline's own verdicts.

The model is the shipped `decisions/outcome_model.json`, fitted on the calibration side of the
sets (`--split calibration`); its figures count only on the other side (`--split held-out`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from decisions.weighing import OutcomeModel, Reading, outcome_model, outcome_propose
from evaluation.metrics import coverage, decisive_precision, score
from evaluation.runner import ClaimResult


def weighed_proposals(results: Sequence[ClaimResult], model: OutcomeModel) -> list[dict[str, Any]]:
    """Per claim: the proposed outcome ("invalid" where neither reaches its threshold), the
    lean and the three probabilities."""
    found = []
    for result in results:
        readings = [Reading(**reading) for reading in result.readings]
        weighing = outcome_propose(readings, model)
        found.append(
            {
                "key": result.key,
                "proposed": weighing.proposed,
                "lean": weighing.lean,
                "probabilities": {k: round(v, 4) for k, v in weighing.probabilities.items()},
            }
        )
    return found


def weighed_report(
    results: Sequence[ClaimResult], names: dict[str, str], labels: list[str]
) -> dict[str, Any]:
    model = outcome_model()
    proposals = weighed_proposals(results, model)
    gold = [r.gold for r in results]
    proposed = [p["proposed"] for p in proposals]
    scores = score(
        gold=[names[g] for g in gold], predicted=[names[p] for p in proposed], labels=labels
    )
    return {
        "thresholds": model.thresholds,
        "coverage": coverage(proposed),
        "decisive_precision": decisive_precision(gold=gold, predicted=proposed),
        "macro_f1": scores.macro_f1,
        "accuracy": scores.accuracy,
        "proposals": proposals,
    }


def weighed_line(weighed: dict[str, Any]) -> str:
    precision = weighed["decisive_precision"]

    def share(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    return (
        f"Weighed proposal (the outcome model on the readings): macro-F1 "
        f"{weighed['macro_f1']:.3f}, precision True {share(precision['true'])}, False "
        f"{share(precision['false'])}, coverage {weighed['coverage']:.3f} (thresholds True "
        f"{weighed['thresholds']['true']:.2f}, False {weighed['thresholds']['false']:.2f})"
    )
