"""Multinomial logistic regression with the reference class at score 0, fitted by Newton's method.

The classes are OUTCOMES (true, false, invalid); invalid's score is fixed at 0, so the model is
two rows of coefficients, one for true and one for false, as `decisions.weighing.OutcomeModel`
reads them. The objective is the weighted log-loss summed over the claims plus
`l2 / 2 * |coefficients|^2` over every coefficient but the bias (the first feature): the same
objective as scikit-learn's `LogisticRegression(C=1 / l2)` with a free intercept. It is smooth
and convex, so Newton's method with a backtracking line search converges in a few steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from decisions.weighing import OUTCOMES

FITTED = 2
"""The classes with coefficients: true and false (invalid is the reference)."""
MAX_ITERATIONS = 100
GRADIENT_TOLERANCE = 1e-9
"""The largest gradient entry, per unit of total claim weight, at which the fit has converged."""
EPSILON = 1e-15


@dataclass(frozen=True)
class Fit:
    coefficients: np.ndarray
    """Shape (2, features): the row for true, then the row for false."""
    iterations: int
    converged: bool
    objective: float
    """The penalised weighted log-loss the fit minimised, per unit of claim weight."""


def probabilities(x: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """P(true), P(false), P(invalid) for each row of x, in the order of OUTCOMES."""
    scores = np.concatenate([x @ coefficients.T, np.zeros((len(x), 1))], axis=1)
    scores -= scores.max(axis=1, keepdims=True)
    exps = np.exp(scores)
    return exps / exps.sum(axis=1, keepdims=True)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean negative log-probability of each claim's gold outcome, every claim counting once."""
    if not len(y):
        return 0.0
    picked = np.clip(p[np.arange(len(y)), y], EPSILON, 1.0)
    return float(-np.log(picked).mean())


def class_weights(y: np.ndarray, *, balanced: bool) -> dict[str, float]:
    """Each outcome's weight per claim: with `balanced`, inversely proportional to how often it
    is the gold outcome (n / (3 * count), scikit-learn's "balanced"), so that each outcome
    weighs as much in total and the fit cannot win by learning the base rate; else 1."""
    counts = np.bincount(y, minlength=len(OUTCOMES))
    if not balanced:
        return dict.fromkeys(OUTCOMES, 1.0)
    return {
        outcome: float(len(y) / (len(OUTCOMES) * count)) if count else 0.0
        for outcome, count in zip(OUTCOMES, counts, strict=True)
    }


def _objective(
    x: np.ndarray, targets: np.ndarray, weights: np.ndarray, w: np.ndarray, penalty: np.ndarray
) -> float:
    p = probabilities(x, w)
    picked = np.clip((p * targets).sum(axis=1), EPSILON, 1.0)
    return float(-(weights * np.log(picked)).sum() + 0.5 * (penalty * w * w).sum())


def _gradient(
    x: np.ndarray, targets: np.ndarray, weights: np.ndarray, w: np.ndarray, penalty: np.ndarray
) -> np.ndarray:
    p = probabilities(x, w)
    return (weights[:, None] * (p[:, :FITTED] - targets[:, :FITTED])).T @ x + penalty * w


def _hessian(x: np.ndarray, weights: np.ndarray, w: np.ndarray, penalty: np.ndarray) -> np.ndarray:
    d = x.shape[1]
    p = probabilities(x, w)
    hessian = np.diag(penalty.reshape(-1))
    for k in range(FITTED):
        for m in range(FITTED):
            share = weights * p[:, k] * ((k == m) - p[:, m])
            hessian[k * d : (k + 1) * d, m * d : (m + 1) * d] += (x * share[:, None]).T @ x
    return hessian


def fit(x: np.ndarray, y: np.ndarray, *, l2: float, balanced: bool) -> Fit:
    """The coefficients that minimise the objective on (x, y); y holds indexes into OUTCOMES.
    Every outcome must be some claim's gold outcome, or its score would run off to -inf."""
    counts = np.bincount(y, minlength=len(OUTCOMES))
    missing = [outcome for outcome, count in zip(OUTCOMES, counts, strict=True) if not count]
    if missing:
        raise ValueError(f"no claim has gold outcome {', '.join(missing)}: nothing to fit it on")
    per_class = class_weights(y, balanced=balanced)
    weights = np.asarray([per_class[OUTCOMES[i]] for i in y])
    targets = np.eye(len(OUTCOMES))[y]
    penalty = np.full((FITTED, x.shape[1]), l2)
    penalty[:, 0] = 0.0
    total = float(weights.sum())
    w = np.zeros_like(penalty)
    objective = _objective(x, targets, weights, w, penalty)
    iterations = 0
    while iterations < MAX_ITERATIONS:
        gradient = _gradient(x, targets, weights, w, penalty)
        if np.abs(gradient).max() <= GRADIENT_TOLERANCE * total:
            break
        hessian = _hessian(x, weights, w, penalty)
        step = np.linalg.lstsq(hessian, gradient.reshape(-1), rcond=None)[0].reshape(w.shape)
        slope = float((gradient * step).sum())
        size = 1.0
        # Backtrack until the step lowers the objective enough (Armijo); Newton's full step is
        # taken near the optimum, so convergence stays quadratic.
        while size > 1e-12:
            trial = w - size * step
            trial_objective = _objective(x, targets, weights, trial, penalty)
            if trial_objective <= objective - 1e-4 * size * slope:
                break
            size /= 2
        else:
            break  # at the floating-point floor: no step lowers the objective any more
        w, objective = trial, trial_objective
        iterations += 1
    gradient = _gradient(x, targets, weights, w, penalty)
    converged = bool(np.abs(gradient).max() <= GRADIENT_TOLERANCE * total)
    return Fit(w, iterations, converged, objective / total)
