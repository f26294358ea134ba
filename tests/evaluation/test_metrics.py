"""The evaluation's figures: scores from the confusion matrix, baselines, the bootstrap interval,
decisive precision with coverage, and retrieval recall."""

from __future__ import annotations

from evaluation.metrics import (
    baselines,
    coverage,
    decisive_precision,
    macro_f1_interval,
    score,
)
from evaluation.report import retrieval_recall
from evaluation.runner import ClaimResult

LABELS = ["True", "False", "Invalid"]


def test_scores_follow_the_confusion_matrix() -> None:
    gold = ["True", "True", "False", "False", "False", "Invalid"]
    predicted = ["True", "False", "False", "False", "Invalid", "Invalid"]
    scores = score(gold=gold, predicted=predicted, labels=LABELS)
    assert scores.confusion["False"] == {"True": 0, "False": 2, "Invalid": 1}
    assert scores.accuracy == round(4 / 6, 4)
    by_label = {s.label: s for s in scores.per_label}
    assert by_label["True"].precision == 1.0
    assert by_label["True"].recall == 0.5
    assert by_label["Invalid"].precision == 0.5
    assert scores.macro_f1 == round((2 / 3 + 2 / 3 + 2 / 3) / 3, 4)


def test_the_majority_baseline_is_exact_and_the_random_one_is_repeatable() -> None:
    gold = ["False"] * 6 + ["True"] * 3 + ["Invalid"]
    first, random_guess = baselines(gold=gold, labels=LABELS)
    assert first.name == "always False"
    assert first.accuracy == 0.6
    assert first.macro_f1 == round((2 * 0.6 / 1.6) / 3, 4)
    assert baselines(gold=gold, labels=LABELS)[1] == random_guess


def test_the_bootstrap_interval_holds_the_point_estimate_and_is_repeatable() -> None:
    gold = ["True"] * 10 + ["False"] * 20 + ["Invalid"] * 5
    predicted = ["True"] * 7 + ["False"] * 3 + ["False"] * 15 + ["Invalid"] * 5 + ["True"] * 5
    point = score(gold=gold, predicted=predicted, labels=LABELS).macro_f1
    low, high = macro_f1_interval(gold=gold, predicted=predicted, labels=LABELS, draws=300)
    assert low < point < high
    assert macro_f1_interval(gold=gold, predicted=predicted, labels=LABELS, draws=300) == [
        low,
        high,
    ]


def test_decisive_precision_and_coverage_count_only_true_and_false_verdicts() -> None:
    gold = ["true", "true", "false", "invalid", "false", "invalid"]
    predicted = ["true", "false", "false", "true", "invalid", "invalid"]
    assert decisive_precision(gold=gold, predicted=predicted) == {"true": 0.5, "false": 0.5}
    assert decisive_precision(gold=["true"], predicted=["invalid"]) == {
        "true": None,
        "false": None,
    }
    assert coverage(predicted) == round(4 / 6, 4)


def _result(key: str, *, pages: list[str], read: list[str]) -> ClaimResult:
    return ClaimResult(
        key=key,
        text="",
        gold="true",
        gold_label="Supported",
        predicted="invalid",
        status="decided",
        page_urls=pages,
        read_urls=read,
    )


def test_retrieval_recall_counts_claims_one_of_whose_own_pages_was_read() -> None:
    results = [
        _result(
            "1", pages=["https://a.example/x", "https://b.example/y"], read=["https://b.example/y"]
        ),
        _result("2", pages=["https://c.example/z"], read=["https://a.example/x"]),
        _result("3", pages=[], read=["https://a.example/x"]),
    ]
    assert retrieval_recall(results) == 0.5
