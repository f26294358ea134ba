"""The outcome model refitted on the editors' reviews.

Every claim an editor kept or overrode is a label: its verdict stored the readings the model
weighed (`Verdict.proposal["readings"]`), and the claim's outcome is what the editor left. The
refit fits the same multinomial logistic model (`decisions.weighing`) on those claims, held to
the model in force by a Gaussian prior centred on its coefficients: the shipped model was fitted
on the calibration claims (`training/outcome/`), whose data is not part of the product, and the
prior stands in for them (`prior`, how many claims' worth the model in force counts for), so a
few dozen reviews move it a little and a few thousand move it much.

A quarter of the reviewed claims (by a hash of their id, the same ones every time) is held out.
The refitted model's thresholds are chosen on the rest, as the calibration chose them: the lowest
probability at which at least `PRECISION` of the claims given the outcome are right, over at
least `MIN_PROPOSALS` of them; otherwise the threshold in force stays. On the held-out claims the
refit is compared with the model in force (log-loss; and the proposals' precision beside their
coverage, and which proposals would change); a refit that does worse there is refused.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.db.models import F

from claims.models import ClaimStatus
from decisions.models import Verdict
from decisions.types import REFUTE, SUPPORT
from decisions.weighing import OUTCOMES, OutcomeModel, Reading, features, gate_passes

PRECISION = 0.8
MIN_PROPOSALS = 5
HOLD_OUT_EVERY = 4  # one reviewed claim in four is held out
MIN_REVIEWED = 20
DEFAULT_PRIOR = 50.0
_THRESHOLDS = [round(0.34 + 0.01 * i, 2) for i in range(66)]


@dataclass(frozen=True)
class Example:
    claim_id: int
    x: list[float]
    label: str
    readings: list[Reading]

    @property
    def held_out(self) -> bool:
        digest = hashlib.sha256(f"reviewed-claim-{self.claim_id}".encode()).hexdigest()
        return int(digest, 16) % HOLD_OUT_EVERY == 0


def reviewed_examples() -> list[Example]:
    """Every reviewed claim whose current verdict stored its readings, with the editor's
    outcome as its label."""
    examples = []
    rows = Verdict.objects.filter(
        run_number=F("claim__run_number"),
        claim__status=ClaimStatus.DECIDED,
        claim__reviewed_at__isnull=False,
    ).values_list("claim_id", "claim__outcome", "proposal")
    for claim_id, label, proposal in rows:
        if label not in OUTCOMES or not isinstance(proposal, dict):
            continue
        stored = proposal.get("readings")
        if not isinstance(stored, list):
            continue
        readings = [Reading(**r) for r in stored if isinstance(r, dict)]
        examples.append(Example(claim_id, features(readings), label, readings))
    return examples


def _propose(model: OutcomeModel, example: Example) -> str:
    """What `model` proposes for the example: `decisions.weighing.outcome_propose`'s rule."""
    p = model.probabilities(example.x)
    side = "true" if p["true"] >= p["false"] else "false"
    read = any(r.strength > 0 for r in example.readings)
    gated = gate_passes(example.readings, SUPPORT if side == "true" else REFUTE, model.gates[side])
    if read and p[side] > p["invalid"] and p[side] >= model.thresholds[side] and gated:
        return side
    return "invalid"


def _fit(
    examples: list[Example], start: OutcomeModel, prior: float, iterations: int = 50
) -> dict[str, list[float]]:
    """MAP coefficients: the log-loss over `examples` plus prior / 2 times the squared distance
    from `start`'s coefficients, by Newton's method (16 parameters)."""
    x = np.array([e.x for e in examples], dtype=float)
    y = np.array([[e.label == "true", e.label == "false"] for e in examples], dtype=float)
    beta0 = np.array([start.coefficients["true"], start.coefficients["false"]], dtype=float)
    beta = beta0.copy()
    d = x.shape[1]

    def objective(b: np.ndarray) -> float:
        scores = np.column_stack([x @ b[0], x @ b[1], np.zeros(len(x))])
        top = scores.max(axis=1, keepdims=True)
        log_p = scores - top - np.log(np.exp(scores - top).sum(axis=1, keepdims=True))
        labels = np.column_stack([y, 1 - y.sum(axis=1)])
        return float(-(labels * log_p).sum() + prior / 2 * ((b - beta0) ** 2).sum())

    for _ in range(iterations):
        scores = np.column_stack([x @ beta[0], x @ beta[1], np.zeros(len(x))])
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=1, keepdims=True)
        residual = p[:, :2] - y
        gradient = (residual.T @ x + prior * (beta - beta0)).reshape(-1)
        hessian = np.zeros((2 * d, 2 * d))
        for a in range(2):
            for b in range(2):
                weight = p[:, a] * ((a == b) - p[:, b])
                hessian[a * d : (a + 1) * d, b * d : (b + 1) * d] = (x * weight[:, None]).T @ x
        hessian += prior * np.eye(2 * d) + 1e-9 * np.eye(2 * d)
        step = np.linalg.solve(hessian, gradient).reshape(2, d)
        before, scale = objective(beta), 1.0
        while scale > 1e-4 and objective(beta - scale * step) > before:
            scale /= 2
        beta = beta - scale * step
        if np.abs(scale * step).max() < 1e-8:
            break
    return {
        "true": [round(float(v), 6) for v in beta[0]],
        "false": [round(float(v), 6) for v in beta[1]],
    }


def _thresholds(model: OutcomeModel, examples: list[Example]) -> dict[str, float]:
    chosen = dict(model.thresholds)
    for outcome in ("true", "false"):
        for threshold in _THRESHOLDS:
            trial = OutcomeModel(
                model.coefficients, {**model.thresholds, outcome: threshold}, model.gates
            )
            given = [e for e in examples if _propose(trial, e) == outcome]
            right = sum(e.label == outcome for e in given)
            if len(given) >= MIN_PROPOSALS and right >= PRECISION * len(given):
                chosen[outcome] = threshold
                break
    return chosen


@dataclass(frozen=True)
class Figures:
    claims: int
    log_loss: float
    proposed: int
    right: int

    @property
    def precision(self) -> float | None:
        return self.right / self.proposed if self.proposed else None

    @property
    def coverage(self) -> float | None:
        return self.proposed / self.claims if self.claims else None

    def as_json(self) -> dict[str, Any]:
        return {
            "claims": self.claims,
            "log_loss": round(self.log_loss, 4),
            "proposed": self.proposed,
            "right": self.right,
            "precision": None if self.precision is None else round(self.precision, 3),
            "coverage": None if self.coverage is None else round(self.coverage, 3),
        }


def figures(model: OutcomeModel, examples: list[Example]) -> Figures:
    loss = 0.0
    proposed = right = 0
    for e in examples:
        loss -= math.log(max(1e-12, model.probabilities(e.x)[e.label]))
        outcome = _propose(model, e)
        if outcome != "invalid":
            proposed += 1
            right += outcome == e.label
    return Figures(len(examples), loss / len(examples) if examples else 0.0, proposed, right)


@dataclass(frozen=True)
class Refit:
    model: OutcomeModel | None
    """The refitted model; None when there were too few reviewed claims to fit on."""
    accepted: bool
    """Whether it does at least as well as the model in force on the held-out claims."""
    why: str
    trained_on: int = 0
    before: Figures | None = None
    after: Figures | None = None
    changes: list[dict[str, Any]] = field(default_factory=list)
    """Held-out claims whose proposal it would change: claim, editor's outcome, before, after."""

    def as_json(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "why": self.why,
            "trained_on": self.trained_on,
            "held_out_before": self.before.as_json() if self.before else None,
            "held_out_after": self.after.as_json() if self.after else None,
            "changes": self.changes,
        }


def outcome_refit(current: OutcomeModel, *, prior: float = DEFAULT_PRIOR) -> Refit:
    """The model refitted on the reviewed claims, compared with `current` on those held out."""
    examples = reviewed_examples()
    train = [e for e in examples if not e.held_out]
    held = [e for e in examples if e.held_out]
    if len(train) < MIN_REVIEWED or not held:
        return Refit(
            None,
            False,
            f"too few reviewed claims to refit on: {len(train)} to fit and {len(held)} held "
            f"out (at least {MIN_REVIEWED} and 1)",
        )
    coefficients = _fit(train, current, prior)
    fitted = OutcomeModel(coefficients, dict(current.thresholds), dict(current.gates))
    refit = OutcomeModel(coefficients, _thresholds(fitted, train), dict(current.gates))
    before, after = figures(current, held), figures(refit, held)
    changes = [
        {"claim": e.claim_id, "editor": e.label, "before": old, "after": new}
        for e in held
        if (old := _propose(current, e)) != (new := _propose(refit, e))
    ]
    worse = after.log_loss > before.log_loss + 1e-9 or (
        before.precision is not None
        and after.precision is not None
        and after.precision < before.precision
    )
    why = (
        f"it does worse on the {len(held)} held-out reviewed claims (log-loss "
        f"{after.log_loss:.3f} against {before.log_loss:.3f}, precision "
        f"{_ratio(after.precision)} against {_ratio(before.precision)})"
        if worse
        else f"it does at least as well on the {len(held)} held-out reviewed claims"
    )
    return Refit(refit, not worse, why, len(train), before, after, changes)


def _ratio(value: float | None) -> str:
    return "none proposed" if value is None else f"{value:.2f}"


def model_data(model: OutcomeModel) -> dict[str, Any]:
    return {
        "coefficients": model.coefficients,
        "thresholds": model.thresholds,
        "gates": model.gates,
    }


def model_from(data: dict[str, Any]) -> OutcomeModel:
    return OutcomeModel(
        coefficients={k: [float(v) for v in data["coefficients"][k]] for k in ("true", "false")},
        thresholds={k: float(data["thresholds"][k]) for k in ("true", "false")},
        gates={k: str(v) for k, v in data["gates"].items()},
    )
