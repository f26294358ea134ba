"""Weigh, don't count: the probability of a claim's outcome from what was read about it.

Each reading is a statement read where it was published, with the side it takes, how sure its
reader was (a probability), and its publisher's weight from the registry. The readings of one
publisher on one side count once, with the strongest of them: a publisher is one witness. Each
side's witnesses combine as independent evidence (`1 - prod(1 - weight * probability)`), so a
second independent source adds to a first without ever making a certainty of two weak ones.

A multinomial logistic model over those figures gives P(True), P(False) and P(not decidable).
Its coefficients and its decision thresholds are fitted on a calibration split of labelled real
claims (`training/outcome/`; the split and the figures are in `outcome_model.json`'s card), never
on the claims the evaluation reports. The outcome is proposed where its probability reaches its
threshold; otherwise the claim stays undecided and the larger of P(True) and P(False) is shown as
a lean, for the editor to start from.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from decisions.publishers import set_aside
from decisions.types import REFUTE, SUPPORT, ClaimQuestion, EvidenceHit, dated_inside

MODEL_PATH = Path(__file__).with_name("outcome_model.json")

# How far a reading's own "confidence" label lets its probability stand.
CONFIDENCE_SHARE = {"high": 1.0, "medium": 0.75, "low": 0.5}
# The reader's confidence a reading needs to count on its own (`decisions.decide`'s default).
SURE = ("medium", "high")
FEATURES = (
    "bias",
    "support_strength",
    "refute_strength",
    "both_strength",
    "support_witnesses",
    "refute_witnesses",
    "support_named",
    "refute_named",
)
OUTCOMES = ("true", "false", "invalid")


@dataclass(frozen=True)
class Reading:
    """One read statement as the weighing sees it."""

    side: str
    """SUPPORT or REFUTE."""
    publisher: str
    weight: float
    """The publisher's weight in the registry (0 to 1)."""
    probability: float
    """How likely the reading is right, from its reader's score and confidence (0 to 1)."""
    url: str = ""
    named: float = 1.0
    """How far the statement names the claim's own entities (0 to 1; 1 when the claim names
    none): a statement on the claim's topic about other people or places says little of it."""
    sure: bool = False
    """Whether it was read as surely as counting asks (medium confidence or more)."""
    tier: str = ""
    """Its publisher's tier in the registry ("official", "wire", ...; "" where not known)."""

    @property
    def strength(self) -> float:
        return max(0.0, min(1.0, self.weight * self.probability))


def reading_of(hit: EvidenceHit, *, question: ClaimQuestion) -> Reading | None:
    """The hit as a reading, or None when it cannot weigh: it takes no side, was not read
    where it was published, its publisher has no weight, or it supports a claim with a
    timeframe and is dated outside it (another event, not the claimed one)."""
    if hit.stance not in (SUPPORT, REFUTE) or not hit.read or hit.weight <= 0 or not hit.domain:
        return None
    if hit.stance == SUPPORT and question.has_timeframe and not dated_inside(question, hit):
        return None
    share = CONFIDENCE_SHARE.get(hit.confidence, 0.5)
    probability = max(0.0, min(1.0, hit.stance_score)) * share
    return Reading(
        side=hit.stance,
        publisher=hit.publisher,
        weight=hit.weight,
        probability=probability,
        url=hit.url,
        named=1.0 if hit.entity_overlap is None else max(0.0, min(1.0, hit.entity_overlap)),
        sure=hit.confidence in SURE,
        tier=hit.tier or "",
    )


def readings_of(hits: list[EvidenceHit], *, question: ClaimQuestion) -> list[Reading]:
    return [r for hit in hits if (r := reading_of(hit, question=question)) is not None]


@dataclass(frozen=True)
class Side:
    strength: float
    """1 - prod(1 - weight * probability) over the side's witnesses, 0 to 1."""
    witnesses: tuple[Reading, ...]
    """Each publisher's strongest reading on this side, strongest first."""


def side_of(readings: list[Reading], side: str) -> Side:
    best: dict[str, Reading] = {}
    for reading in readings:
        if reading.side != side:
            continue
        current = best.get(reading.publisher)
        if current is None or reading.strength > current.strength:
            best[reading.publisher] = reading
    witnesses = tuple(sorted(best.values(), key=lambda r: (-r.strength, r.publisher)))
    return Side(strength=_together(r.strength for r in witnesses), witnesses=witnesses)


def _together(strengths: Iterable[float]) -> float:
    """Independent witnesses' strengths combined: 1 - prod(1 - strength)."""
    doubt = 1.0
    for strength in strengths:
        doubt *= 1.0 - strength
    return 1.0 - doubt


def _named(side: Side) -> float:
    """The side's strength with each witness's strength scaled by how far it names the
    claim's entities."""
    return _together(r.strength * r.named for r in side.witnesses)


def features(readings: list[Reading]) -> list[float]:
    """The model's inputs, in the order of FEATURES."""
    support, refute = side_of(readings, SUPPORT), side_of(readings, REFUTE)
    return [
        1.0,
        support.strength,
        refute.strength,
        min(support.strength, refute.strength),
        math.log1p(sum(1 for r in support.witnesses if r.strength > 0)),
        math.log1p(sum(1 for r in refute.witnesses if r.strength > 0)),
        _named(support),
        _named(refute),
    ]


# What a proposal asks of the readings on its own side besides its probability, strictest
# first: a reading as sure as counting asks ("sure"); that, or two publishers reading that side
# ("sure_or_two": two independent witnesses stand for one sure one); or nothing more ("none").
# The fit chooses each outcome's gate with its threshold, on the calibration claims.
GATES = ("sure", "sure_or_two", "none")


# The tiers one of whose sure supports grounds a True alone: a government's or an agency's own
# word, or a news agency's report.
FIRST_HAND = ("official", "wire")


def grounded(readings: list[Reading], side: str) -> bool:
    """Whether `side` rests on something counted, whatever the gate: a proposal is never made
    from the weighed lean alone. A False needs a reading of a refutation as sure as counting
    asks; a True a sure support from an official or wire source, or sure supports from two
    independent publishers."""
    sure = {r.publisher: r for r in readings if r.side == side and r.sure and r.strength > 0}
    if side == REFUTE:
        return bool(sure)
    return len(sure) >= 2 or any(r.tier in FIRST_HAND for r in sure.values())


def gate_passes(readings: list[Reading], side: str, gate: str) -> bool:
    """Whether the readings of `side` (SUPPORT or REFUTE) pass `gate` (one of GATES), on top
    of the floor every proposal stands on (`grounded`)."""
    if gate not in GATES:
        raise ValueError(f"unknown gate {gate!r}: one of {list(GATES)}")
    if not grounded(readings, side):
        return False
    if gate == "none" or any(r.sure for r in readings if r.side == side and r.strength > 0):
        return True
    witnesses = [r for r in side_of(readings, side).witnesses if r.strength > 0]
    return gate == "sure_or_two" and len(witnesses) >= 2


@dataclass(frozen=True)
class OutcomeModel:
    """Coefficients for True and False (not decidable is the reference class at 0), the
    probability at which each is proposed, and what each asks of its own side's readings."""

    coefficients: dict[str, list[float]]
    thresholds: dict[str, float]
    gates: dict[str, str] = field(default_factory=lambda: {"true": "sure", "false": "sure"})

    def probabilities(self, x: list[float]) -> dict[str, float]:
        scores = {
            outcome: sum(c * v for c, v in zip(self.coefficients[outcome], x, strict=True))
            for outcome in ("true", "false")
        }
        scores["invalid"] = 0.0
        top = max(scores.values())
        exps = {outcome: math.exp(score - top) for outcome, score in scores.items()}
        total = sum(exps.values())
        return {outcome: exps[outcome] / total for outcome in OUTCOMES}


@functools.cache
def outcome_model(path: Path = MODEL_PATH) -> OutcomeModel:
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{path}: fitted on features {data['features']}, not {list(FEATURES)}")
    gates = {k: str(v) for k, v in data.get("gates", {"true": "sure", "false": "sure"}).items()}
    if set(gates) != {"true", "false"} or not set(gates.values()) <= set(GATES):
        raise ValueError(f"{path}: gates {gates} are not one of {list(GATES)} for true and false")
    return OutcomeModel(
        coefficients={k: [float(v) for v in data["coefficients"][k]] for k in ("true", "false")},
        thresholds={k: float(data["thresholds"][k]) for k in ("true", "false")},
        gates=gates,
    )


@dataclass(frozen=True)
class OutcomeProposal:
    probabilities: dict[str, float]
    """P(True), P(False), P(not decidable), keyed by "true", "false", "invalid"."""
    proposed: str
    """"true" or "false" where its probability reached the model's threshold, else "invalid"."""
    lean: str
    """The likeliest of the three outcomes ("invalid" when nothing was read): where an
    undecided claim leans."""
    support: Side
    refute: Side


def outcome_propose(readings: list[Reading], model: OutcomeModel | None = None) -> OutcomeProposal:
    model = model or outcome_model()
    probabilities = model.probabilities(features(readings))
    side = "true" if probabilities["true"] >= probabilities["false"] else "false"
    # Nothing read that weighs (no witness on either side): nothing to propose or lean to.
    # An outcome is proposed, or leaned to, only where it is likelier than "not decidable".
    read = any(r.strength > 0 for r in readings)
    likeliest = read and probabilities[side] > probabilities["invalid"]
    reached = probabilities[side] >= model.thresholds[side]
    gated = gate_passes(readings, SUPPORT if side == "true" else REFUTE, model.gates[side])
    proposed = side if likeliest and reached and gated else "invalid"
    lean = side if likeliest else "invalid"
    return OutcomeProposal(
        probabilities=probabilities,
        proposed=proposed,
        lean=lean,
        support=side_of(readings, SUPPORT),
        refute=side_of(readings, REFUTE),
    )


@dataclass(frozen=True)
class Mover:
    """A witness and how far the outcome's probability falls without it."""

    reading: Reading
    change: float


def movers(
    readings: list[Reading], outcome: str, model: OutcomeModel | None = None, limit: int = 3
) -> list[Mover]:
    """The witnesses that moved `outcome`'s probability most: each publisher's readings are
    left out in turn, and the fall in probability measured."""
    model = model or outcome_model()
    base = model.probabilities(features(readings))[outcome]
    found: list[Mover] = []
    witnesses = side_of(readings, SUPPORT).witnesses + side_of(readings, REFUTE).witnesses
    for witness in witnesses:
        rest = [
            r for r in readings if not (r.publisher == witness.publisher and r.side == witness.side)
        ]
        change = base - model.probabilities(features(rest))[outcome]
        found.append(Mover(reading=witness, change=change))
    found.sort(key=lambda m: (-abs(m.change), m.reading.publisher))
    return [m for m in found[:limit] if abs(m.change) >= 0.005]


_LABELS = {"true": "True", "false": "False", "invalid": "Invalid"}
_SIDE_WORDS = {SUPPORT: "supports", REFUTE: "refutes"}


def proposal_text(proposal: OutcomeProposal) -> str:
    """ "True, 0.86" where the model proposes an outcome; "leans False, 0.71; not decided"
    where neither outcome reaches its threshold; "not decidable, 0.63" where that is likeliest."""
    if proposal.proposed in ("true", "false"):
        return f"{_LABELS[proposal.proposed]}, {proposal.probabilities[proposal.proposed]:.2f}"
    lean = proposal.lean
    if lean == "invalid":
        return f"not decidable, {proposal.probabilities['invalid']:.2f}"
    return f"leans {_LABELS[lean]}, {proposal.probabilities[lean]:.2f}; not decided"


def mover_text(mover: Mover, outcome: str) -> str:
    """ "parliament.example, which refutes the claim: without it the chance of False would be
    0.12 lower"."""
    reading = mover.reading
    way = "lower" if mover.change >= 0 else "higher"
    return (
        f"{reading.publisher}, which {_SIDE_WORDS[reading.side]} the claim: without it the "
        f"chance of {_LABELS[outcome]} would be {abs(mover.change):.2f} {way}"
    )


def proposal_for(
    hits: list[EvidenceHit], *, question: ClaimQuestion, model: OutcomeModel | None = None
) -> dict[str, Any]:
    """The claim's weighed proposal as stored on its verdict and answered by the API: the three
    probabilities, the outcome proposed, the lean and its text, the thresholds, the witnesses
    that moved the proposed (or leaning) outcome most, and the readings it was weighed from.

    An outcome is proposed only where its side's readings pass the model's gate for it
    (`GATES`), chosen by the fit on the calibration claims, and stand on something counted
    (`grounded`): readings the reader was unsure of lean a claim and never decide it."""
    model = model or outcome_model()
    aside = set_aside(hits, passes=lambda h: reading_of(h, question=question) is not None)
    kept = [h for h in hits if id(h) not in aside]
    readings = readings_of(kept, question=question)
    proposal = outcome_propose(readings, model)
    moved_outcome = proposal.proposed if proposal.proposed != "invalid" else proposal.lean
    moved = movers(readings, moved_outcome, model) if moved_outcome != "invalid" else []
    return {
        "probabilities": {k: round(v, 4) for k, v in proposal.probabilities.items()},
        "proposed": proposal.proposed,
        "lean": proposal.lean,
        "text": proposal_text(proposal),
        "thresholds": dict(model.thresholds),
        "gates": dict(model.gates),
        "moved": moved_outcome,
        "movers": [
            {
                "publisher": m.reading.publisher,
                "side": m.reading.side,
                "url": m.reading.url,
                "weight": m.reading.weight,
                "probability": round(m.reading.probability, 4),
                "change": round(m.change, 4),
                "text": mover_text(m, moved_outcome),
            }
            for m in moved
        ],
        "readings": [asdict(r) for r in readings],
    }
