"""The counting-bar table counts a reading at a bar only where the bar is what decides it."""

from __future__ import annotations

from types import SimpleNamespace

from bench.counting_bars import _makers, counts_at, made_by
from evidence.models import Confidence, Stance
from evidence.stance.scorer import Judgement


def _judgement(stance: str, score: float, confidence: str, *reasons: str) -> Judgement:
    return Judgement(stance, score, confidence, 0.9, reasons=["model", *reasons])


def test_a_model_reading_counts_from_its_own_probability_up() -> None:
    refutation = _judgement(Stance.REFUTE, 0.62, Confidence.LOW)
    assert counts_at(refutation, Stance.REFUTE, 0.6)
    assert not counts_at(refutation, Stance.REFUTE, 0.65)
    assert not counts_at(refutation, Stance.SUPPORT, 0.5)


def test_a_reading_the_rules_agreed_with_counts_at_every_bar() -> None:
    agreed = _judgement(Stance.REFUTE, 0.55, Confidence.MEDIUM, "number_mismatch", "agree")
    assert counts_at(agreed, Stance.REFUTE, 1.0)


def test_a_lean_or_a_rule_made_reading_never_counts_by_the_bar() -> None:
    lean = _judgement(Stance.REFUTE, 0.7, Confidence.LOW, "lean", "polarity")
    assert not counts_at(lean, Stance.REFUTE, 0.5)
    ruled = Judgement(Stance.SUPPORT, 0.9, Confidence.LOW, 0.9, reasons=["number_rounded", "rule"])
    assert not counts_at(ruled, Stance.SUPPORT, 0.5)


def test_a_reading_of_neither_counts_for_no_side() -> None:
    neither = _judgement(Stance.NEUTRAL, 0.9, Confidence.LOW, "partial")
    assert not counts_at(neither, Stance.REFUTE, 0.5)
    assert not counts_at(neither, Stance.SUPPORT, 0.5)


def test_each_counted_reading_is_put_down_to_what_made_it() -> None:
    agreed = _judgement(Stance.REFUTE, 0.9, Confidence.MEDIUM, "polarity", "agree")
    alone = _judgement(Stance.REFUTE, 0.97, Confidence.HIGH)
    ruled = Judgement(Stance.SUPPORT, 0.9, Confidence.HIGH, 0.9, reasons=["number_rounded", "rule"])
    assert made_by(agreed) == "polarity"
    assert made_by(alone) == "model alone"
    assert made_by(ruled) == "rule"

    rows = [
        SimpleNamespace(label="neutral", source="healthver"),
        SimpleNamespace(label="refute", source="liar-plus"),
        SimpleNamespace(label="refute", source="liar-plus"),
    ]
    lines = _makers(rows, [agreed, agreed, alone], [0, 1, 2])
    assert lines == [
        "  polarity: 2 counted, 1 right (healthver 1, liar-plus 1)",
        "  model alone: 1 counted, 1 right (liar-plus 1)",
    ]
