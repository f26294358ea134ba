"""The evaluation's reports read as fitting data: for each claim the run decided, its gold
outcome and the product's features of its readings (`decisions.weighing.features`)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from decisions.types import REFUTE, SUPPORT
from decisions.weighing import GATES, OUTCOMES, Reading, features, gate_passes

# The one run status whose readings are the ones the product weighed; a claim rejected at
# submission or failed in the pipeline was never weighed and says nothing about the model.
DECIDED = "decided"
# A set named so (bench/reworded_bench.py --untouched) was kept apart from every tuning step.
UNTOUCHED = "-untouched"


class ReportError(ValueError):
    """A report this fit cannot read."""


@dataclass(frozen=True)
class Claim:
    dataset: str
    key: str
    gold: str
    """An Outcome value: "true", "false" or "invalid"."""
    x: list[float]
    """`decisions.weighing.features` of the claim's readings."""
    gates: dict[str, dict[str, bool]] = field(default_factory=dict)
    """For "true" and "false", which of `decisions.weighing.GATES` its side's readings pass."""

    def fold(self, folds: int) -> int:
        """The claim's cross-validation fold, from a hash of its dataset and key: the same
        claim lands in the same fold in every run and in every report it appears in."""
        digest = hashlib.sha256(f"{self.dataset}\x00{self.key}".encode()).hexdigest()
        return int(digest, 16) % folds


@dataclass(frozen=True)
class Source:
    """One report file as the card names it."""

    path: str
    sha256: str
    dataset: str
    claims: int
    left_out: dict[str, int]
    """Claims not fitted on, by run status."""


@dataclass
class Data:
    claims: list[Claim] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)

    @property
    def x(self) -> np.ndarray:
        return np.asarray([c.x for c in self.claims], dtype=np.float64)

    @property
    def y(self) -> np.ndarray:
        """Each claim's gold outcome as its index in OUTCOMES."""
        return np.asarray([OUTCOMES.index(c.gold) for c in self.claims], dtype=np.int64)

    def gated(self, outcome: str, gate: str) -> np.ndarray:
        """Which claims' readings pass `gate` for `outcome` ("true" or "false")."""
        return np.asarray([c.gates[outcome][gate] for c in self.claims], dtype=bool)

    def gold_counts(self) -> dict[str, int]:
        counts = Counter(c.gold for c in self.claims)
        return {outcome: counts[outcome] for outcome in OUTCOMES}

    def datasets(self) -> dict[str, int]:
        counts = Counter(c.dataset for c in self.claims)
        return dict(sorted(counts.items()))


def reading(raw: Any, *, where: str) -> Reading:
    if not isinstance(raw, dict):
        raise ReportError(f"{where}: a reading is {type(raw).__name__}, not an object")
    try:
        return Reading(
            side=str(raw["side"]),
            publisher=str(raw["publisher"]),
            weight=float(raw["weight"]),
            probability=float(raw["probability"]),
            url=str(raw.get("url", "")),
            named=float(raw.get("named", 1.0)),
            sure=bool(raw.get("sure", False)),
            tier=str(raw.get("tier", "")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"{where}: a reading lacks or mistypes {exc}") from exc


def claim(raw: dict[str, Any], *, dataset: str, where: str, own_pages_only: bool = False) -> Claim:
    gold = raw.get("gold")
    if gold not in OUTCOMES:
        raise ReportError(f"{where}: gold {gold!r} is not one of {list(OUTCOMES)}")
    if "readings" not in raw:
        raise ReportError(
            f"{where}: no readings; the report predates them, run `manage.py evaluate` again"
        )
    readings = [reading(r, where=where) for r in raw["readings"]]
    if own_pages_only:
        own = set(raw.get("page_urls") or ())
        readings = [r for r in readings if r.url in own]
    gates = {
        outcome: {gate: gate_passes(readings, side, gate) for gate in GATES}
        for outcome, side in (("true", SUPPORT), ("false", REFUTE))
    }
    return Claim(dataset=dataset, key=str(raw["key"]), gold=gold, x=features(readings), gates=gates)


def read_report(path: Path, data: Data, *, own_pages_only: bool = False) -> None:
    """Add the decided claims of one report (`evaluation.report.build_report`'s JSON, or a
    bare list of its claim results) to `data`. With `own_pages_only`, a claim keeps only its
    readings of the pages the evaluation knows to be its own (`page_urls`): what the weighing
    would reach if the pipeline read nothing else, a ceiling to measure, never to fit on."""
    content = path.read_bytes()
    report = json.loads(content)
    if isinstance(report, dict):
        results, dataset = report.get("results"), str(report.get("dataset") or path.stem)
    else:
        results, dataset = report, path.stem
    if not isinstance(results, list):
        raise ReportError(f"{path}: no list of claim results")
    if dataset.endswith(UNTOUCHED):
        raise ReportError(f"{path}: {dataset} is kept untouched, to measure with, never to fit on")
    left_out: Counter[str] = Counter()
    fitted = 0
    for number, raw in enumerate(results):
        status = str(raw.get("status", DECIDED)) or "unknown"
        if status != DECIDED:
            left_out[status] += 1
            continue
        where = f"{path} claim {number}"
        data.claims.append(claim(raw, dataset=dataset, where=where, own_pages_only=own_pages_only))
        fitted += 1
    data.sources.append(
        Source(
            path=str(path),
            sha256=hashlib.sha256(content).hexdigest(),
            dataset=dataset,
            claims=fitted,
            left_out=dict(sorted(left_out.items())),
        )
    )


def read_reports(paths: list[Path], *, own_pages_only: bool = False) -> Data:
    data = Data()
    for path in paths:
        read_report(path, data, own_pages_only=own_pages_only)
    return data
