"""Accuracy, macro-F1, the confusion matrix and per-label figures, plus the two baselines any
figure must beat: always the majority class, and a random guess drawn from the label priors."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

RANDOM_SEED = 0
RANDOM_DRAWS = 1000


@dataclass(frozen=True)
class LabelScore:
    label: str
    precision: float
    recall: float
    f1: float
    support: int
    predicted: int


@dataclass(frozen=True)
class Scores:
    n: int
    accuracy: float
    macro_f1: float
    per_label: list[LabelScore]
    confusion: dict[str, dict[str, int]]
    """gold label → predicted label → count."""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _ratio(top: float, bottom: float) -> float:
    return top / bottom if bottom else 0.0


def score(*, gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str]) -> Scores:
    """Figures over `labels` (every label counts in the macro average, even one never seen)."""
    if len(gold) != len(predicted):
        raise ValueError("gold and predicted differ in length")
    confusion = {g: dict.fromkeys(labels, 0) for g in labels}
    for g, p in zip(gold, predicted, strict=True):
        confusion[g][p] += 1
    per_label = []
    for label in labels:
        hits = confusion[label][label]
        support = sum(confusion[label].values())
        guessed = sum(confusion[g][label] for g in labels)
        precision, recall = _ratio(hits, guessed), _ratio(hits, support)
        per_label.append(
            LabelScore(
                label=label,
                precision=round(precision, 4),
                recall=round(recall, 4),
                f1=round(_ratio(2 * precision * recall, precision + recall), 4),
                support=support,
                predicted=guessed,
            )
        )
    correct = sum(confusion[label][label] for label in labels)
    return Scores(
        n=len(gold),
        accuracy=round(_ratio(correct, len(gold)), 4),
        macro_f1=round(statistics.fmean(s.f1 for s in per_label) if per_label else 0.0, 4),
        per_label=per_label,
        confusion=confusion,
    )


@dataclass(frozen=True)
class Baseline:
    name: str
    accuracy: float
    macro_f1: float
    how: str


def baselines(*, gold: Sequence[str], labels: Sequence[str]) -> list[Baseline]:
    """Always the majority class; and a random guess with the label priors, averaged over
    RANDOM_DRAWS seeded draws (its expectation is about 1/len(labels) macro-F1)."""
    if not gold:
        return []
    counts = Counter(gold)
    majority = max(labels, key=lambda label: (counts[label], -labels.index(label)))
    always = score(gold=gold, predicted=[majority] * len(gold), labels=labels)
    rng = random.Random(RANDOM_SEED)
    weights = [counts[label] for label in labels]
    accuracies, f1s = [], []
    for _ in range(RANDOM_DRAWS):
        guess = rng.choices(list(labels), weights=weights, k=len(gold))
        drawn = score(gold=gold, predicted=guess, labels=labels)
        accuracies.append(drawn.accuracy)
        f1s.append(drawn.macro_f1)
    return [
        Baseline(
            name=f"always {majority}",
            accuracy=always.accuracy,
            macro_f1=always.macro_f1,
            how="the majority class for every claim",
        ),
        Baseline(
            name="random with label priors",
            accuracy=round(statistics.fmean(accuracies), 4),
            macro_f1=round(statistics.fmean(f1s), 4),
            how=f"mean of {RANDOM_DRAWS} draws, seed {RANDOM_SEED}",
        ),
    ]


def summary(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "max": 0.0, "total": 0.0}
    return {
        "mean": round(statistics.fmean(values), 3),
        "median": round(statistics.median(values), 3),
        "max": round(max(values), 3),
        "total": round(sum(values), 3),
    }


BOOTSTRAP_DRAWS = 1000


def macro_f1_interval(
    *,
    gold: Sequence[str],
    predicted: Sequence[str],
    labels: Sequence[str],
    draws: int = BOOTSTRAP_DRAWS,
    seed: int = RANDOM_SEED,
) -> list[float]:
    """The 95% bootstrap interval of macro-F1: the claims resampled with replacement `draws`
    times (seeded, so a report can be reproduced), the 2.5th and 97.5th percentiles."""
    if not gold:
        return [0.0, 0.0]
    rng = random.Random(seed)
    n = len(gold)
    values = []
    for _ in range(draws):
        picks = [rng.randrange(n) for _ in range(n)]
        drawn = score(
            gold=[gold[i] for i in picks], predicted=[predicted[i] for i in picks], labels=labels
        )
        values.append(drawn.macro_f1)
    values.sort()
    low = values[int(0.025 * (draws - 1))]
    high = values[round(0.975 * (draws - 1))]
    return [round(low, 4), round(high, 4)]


def decisive_precision(*, gold: Sequence[str], predicted: Sequence[str]) -> dict[str, float | None]:
    """Of the claims given True (or False), the share whose label is the same; None when the
    outcome was never given. Values are Outcome values ("true", "false")."""
    shares: dict[str, float | None] = {}
    for outcome in ("true", "false"):
        given = [g for g, p in zip(gold, predicted, strict=True) if p == outcome]
        shares[outcome] = round(sum(g == outcome for g in given) / len(given), 4) if given else None
    return shares


def coverage(predicted: Sequence[str]) -> float:
    """The share of claims given True or False."""
    if not predicted:
        return 0.0
    return round(sum(p in ("true", "false") for p in predicted) / len(predicted), 4)
