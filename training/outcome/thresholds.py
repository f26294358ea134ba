"""The probability at which True or False is proposed, and the figures of the proposals.

A claim's proposal follows `decisions.weighing.outcome_propose`: it leans to the likelier of
true and false (true on a tie), and that outcome is proposed where its probability reaches its
threshold, it is likelier than "not decidable" (`likeliest`), and something was read
(`was_read`); otherwise the claim is left "invalid" (not decided). Each threshold is the lowest
on GRID at which, among the claims that would be given that outcome, at least `precision` are
right, with at least `min_decisions` such claims to show it, and no dataset given it `min_group`
times or more right less often; NEVER where none is. A proposal also asks its side's readings to
pass the outcome's gate (`decisions.weighing.GATES`), chosen with the threshold: of the gates
whose threshold qualifies, the one that gives the outcome most often.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from decisions.weighing import OUTCOMES
from evaluation.metrics import coverage, decisive_precision, score
from training.outcome.logistic import log_loss

GRID = tuple(round(0.34 + 0.01 * step, 2) for step in range(66))
"""0.34 to 0.99: below 1/3 an outcome cannot be the likeliest of three."""
NEVER = 1.01
"""A threshold no probability reaches: the outcome is never proposed."""
TRUE, FALSE, INVALID = OUTCOMES


@dataclass(frozen=True)
class Threshold:
    outcome: str
    threshold: float
    precision: float | None
    """Among the claims given the outcome at this threshold, the share labelled so (None when
    no threshold on GRID qualifies)."""
    decisions: int
    """How many claims were given the outcome at this threshold."""


def was_read(x: np.ndarray) -> np.ndarray:
    """Which claims read anything that weighs: a witness on either side (the features'
    `support_witnesses` and `refute_witnesses`). Nothing read, nothing is proposed."""
    return (x[:, 4] > 0) | (x[:, 5] > 0)


def leans(p: np.ndarray) -> np.ndarray:
    """Each claim's lean as an index in OUTCOMES: true where P(true) >= P(false), else false."""
    return np.where(p[:, 0] >= p[:, 1], 0, 1)


def likeliest(p: np.ndarray) -> np.ndarray:
    """Whether each claim's lean is likelier than "not decidable": only then is it proposed."""
    return np.max(p[:, :2], axis=1) > p[:, 2]


def propose(
    p: np.ndarray,
    thresholds: dict[str, float],
    read: np.ndarray,
    gated: dict[str, np.ndarray] | None = None,
) -> list[str]:
    """The outcome the product proposes for each row of probabilities (`read`: `was_read`;
    `gated`: for "true" and "false", which rows pass that outcome's gate, all when None)."""
    out = []
    for n, (row, lean, any_read, first) in enumerate(
        zip(p, leans(p), read, likeliest(p), strict=True)
    ):
        outcome = OUTCOMES[lean]
        passes = gated is None or bool(gated[outcome][n])
        given = any_read and first and passes and row[lean] >= thresholds[outcome]
        out.append(outcome if given else INVALID)
    return out


def each_group_holds(
    given: np.ndarray, right: np.ndarray, groups: np.ndarray | None, precision: float, least: int
) -> bool:
    """Whether every group (dataset) given the outcome `least` times or more is right at least
    `precision` of the time: a threshold met overall can fail one kind of claim badly."""
    if groups is None:
        return True
    for group in np.unique(groups[given]):
        mine = given & (groups == group)
        if int(mine.sum()) >= least and float(right[mine].sum()) / int(mine.sum()) < precision:
            return False
    return True


def given(
    p: np.ndarray, outcome: str, read: np.ndarray, gated: np.ndarray, threshold: float
) -> np.ndarray:
    """Which claims are given `outcome` at `threshold`, behind its gate (`gated`)."""
    column = OUTCOMES.index(outcome)
    leaning = (leans(p) == column) & read & likeliest(p) & gated
    return leaning & (p[:, column] >= threshold)


def choose(
    p: np.ndarray,
    gold: list[str],
    outcome: str,
    *,
    precision: float,
    min_decisions: int,
    read: np.ndarray,
    gated: np.ndarray | None = None,
    groups: np.ndarray | None = None,
    min_group: int = 5,
) -> Threshold:
    """The lowest threshold on GRID whose proposals of `outcome` are right at least `precision`
    of the time, over at least `min_decisions` proposals; only rows that pass the outcome's
    gate (`gated`) are proposed, and with `groups`, each group given it `min_group` times or
    more must be right `precision` of the time too."""
    passes = np.ones(len(p), dtype=bool) if gated is None else gated
    right = np.asarray([g == outcome for g in gold])
    for threshold in GRID:
        proposed = given(p, outcome, read, passes, threshold)
        decisions = int(proposed.sum())
        if decisions < min_decisions:
            break  # fewer claims still at any higher threshold
        share = float(right[proposed].sum()) / decisions
        if share >= precision and each_group_holds(proposed, right, groups, precision, min_group):
            return Threshold(outcome, threshold, round(share, 4), decisions)
    return Threshold(outcome, NEVER, None, 0)


def figures(p: np.ndarray, gold: list[str], predicted: list[str]) -> dict[str, object]:
    """What the evaluation would report for these proposals (its own metric functions), and
    the log-loss of the probabilities behind them."""
    scores = score(gold=gold, predicted=predicted, labels=OUTCOMES)
    return {
        "claims": len(gold),
        "coverage": coverage(predicted),
        "precision": decisive_precision(gold=gold, predicted=predicted),
        "given": {outcome: predicted.count(outcome) for outcome in OUTCOMES},
        "right": {
            outcome: sum(1 for g, p in zip(gold, predicted, strict=True) if p == g == outcome)
            for outcome in OUTCOMES
        },
        "macro_f1": scores.macro_f1,
        "accuracy": scores.accuracy,
        "log_loss": round(log_loss(p, np.asarray([OUTCOMES.index(g) for g in gold])), 4),
    }
