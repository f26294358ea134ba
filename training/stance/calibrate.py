"""Calibration by class, on the calibration split only.

The model's raw probabilities are overconfident, and differently for each label. Vector scaling
(a scale and a bias per label on the logits, fitted by log-loss) makes a reading's probability
mean how often such readings are right. The runtime applies the same scale and bias
(`evidence/stance/model.py`). The bars at which the pipeline counts a support or a refutation are
then the lowest probabilities at which the calibration split's readings on real text were right
at least as often as `TARGETS` asks. No reported figure is measured on this split.
"""

from __future__ import annotations

import itertools

import numpy as np
import torch

from training.stance.records import LABELS, REFUTE, SUPPORT

# How often a counted reading must be right on real text: the 80% the verdicts are held to.
TARGETS = {SUPPORT: 0.8, REFUTE: 0.8}
# The fewest readings at or above a bar that can show it is met.
MIN_READINGS = 15
GRID = [round(0.5 + 0.005 * i, 3) for i in range(100)]


def fit(logits: np.ndarray, gold: list[str]) -> dict[str, list[float]]:
    """The per-label scale and bias that minimise log-loss on (logits, gold)."""
    x = torch.tensor(logits, dtype=torch.float64)
    y = torch.tensor([LABELS.index(g) for g in gold])
    scale = torch.ones(len(LABELS), dtype=torch.float64, requires_grad=True)
    bias = torch.zeros(len(LABELS), dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([scale, bias], lr=0.5, max_iter=200)

    def closure() -> torch.Tensor:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(x * scale + bias, y)
        loss.backward()
        return loss

    optimizer.step(closure)
    return {"scale": scale.detach().tolist(), "bias": bias.detach().tolist()}


def apply(logits: np.ndarray, calibration: dict[str, list[float]]) -> np.ndarray:
    z = logits * np.asarray(calibration["scale"]) + np.asarray(calibration["bias"])
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def bars(probabilities: np.ndarray, gold: list[str]) -> dict[str, dict[str, float]]:
    """For support and refute: the lowest grid probability at which readings of that label were
    right at least TARGETS of the time, with how many there were and how often right."""
    out = {}
    for label in (SUPPORT, REFUTE):
        column = LABELS.index(label)
        read = probabilities.argmax(axis=1) == column
        chosen = {"bar": 1.0, "precision": 0.0, "n": 0}
        for bar in GRID:
            picked = read & (probabilities[:, column] >= bar)
            count = int(picked.sum())
            if count < MIN_READINGS:
                break
            right = sum(1 for i in np.flatnonzero(picked) if gold[i] == label) / count
            if right >= TARGETS[label]:
                chosen = {"bar": bar, "precision": round(right, 4), "n": count}
                break
        out[label] = chosen
    return out


def reliability(probabilities: np.ndarray, gold: list[str]) -> dict[str, list[dict]]:
    """How often readings of each label were right, by probability band."""
    bands = (0.5, 0.7, 0.8, 0.9, 0.95, 1.01)
    out: dict[str, list[dict]] = {}
    for column, label in enumerate(LABELS):
        read = probabilities.argmax(axis=1) == column
        rows = []
        for low, high in itertools.pairwise(bands):
            picked = np.flatnonzero(
                read & (probabilities[:, column] >= low) & (probabilities[:, column] < high)
            )
            if len(picked):
                right = sum(1 for i in picked if gold[i] == label) / len(picked)
                rows.append({"from": low, "n": len(picked), "right": round(right, 4)})
        out[label] = rows
    return out


def calibrated(
    logits: np.ndarray, gold: list[str], real: list[int]
) -> tuple[dict[str, list[float]], dict[str, dict[str, float]], dict[str, list[dict]]]:
    """The scale and bias fitted on every calibration pair, then the bars and the reliability
    bands on the pairs of real text (`real`, their indices)."""
    fitted = fit(logits, gold)
    probabilities = apply(logits, fitted)
    real_gold = [gold[i] for i in real]
    return (
        fitted,
        bars(probabilities[real], real_gold),
        reliability(probabilities[real], real_gold),
    )
