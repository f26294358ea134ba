"""The plain data every dataset reader produces: labelled claims and the pages of their web."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from claims.models import Outcome


class DatasetError(ValueError):
    """The dataset file cannot be read as the format it was given as."""


# The tags of a claim's side in the stance model's own split (training/stance/records.py), on
# the sets it trained on: its held-out side (every figure it reports), and its calibration side
# (never trained on, no figure reported on it). A claim with neither is on its training side.
UNSEEN = "model-held-out"
MODEL_CALIBRATION = "model-calibration"

# The evaluation's splits (`manage.py evaluate --split`): the claim outcome model
# (decisions/weighing.py) is fitted on the calibration side and measured on the held-out side.
ALL, CALIBRATION, HELD_OUT = "all", "calibration", "held-out"
SPLITS = (ALL, CALIBRATION, HELD_OUT)
SPLIT_PURPOSE = {
    CALIBRATION: "The claim outcome model is fitted on this side: its figures are not a "
    "measure of it.",
    HELD_OUT: "The claim outcome model is measured on this side, never fitted on it.",
}


def json_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of a JSON-lines file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise DatasetError(f"{path.name} line {number} is not JSON: {exc}") from exc
        if not isinstance(item, dict):
            raise DatasetError(f"{path.name} line {number} is not a JSON object")
        yield number, item


def calibration_side(text: str) -> bool:
    """Whether a claim of a set the stance model never saw (AVeriTeC) is on the calibration
    side: the first hex digit of SHA-256 of its text (as the reader gives it, stripped, UTF-8)
    is below 8, so about half the claims, the same ones on every machine and run. The claim
    outcome model is fitted on this half and measured on the other; a model measured on the
    claims it was fitted on would report figures it was tuned to reach."""
    return int(hashlib.sha256(text.strip().encode("utf-8")).hexdigest()[0], 16) < 8


@dataclass
class WebSection:
    """One heading and its paragraphs on an offline page (a question and its answer)."""

    heading: str
    paragraphs: list[str]


@dataclass
class WebPage:
    """A page of the offline web: served at `url`, built from the dataset's evidence."""

    url: str
    title: str
    sections: list[WebSection] = field(default_factory=list)
    published: datetime | None = None


@dataclass(frozen=True)
class LabelledClaim:
    """A claim as a fact-checker labelled it. `gold` is an Outcome value; `gold_label` the
    dataset's own label name, kept for the report."""

    key: str
    text: str
    gold: str
    gold_label: str
    timeframe_start: datetime | None = None
    timeframe_end: datetime | None = None
    page_urls: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    """Groups the report splits its figures by (AVeriTeC: the claim's answer types)."""


@dataclass
class Dataset:
    """Claims, the offline web built for them, and what the reader had to leave out."""

    name: str
    label_names: dict[str, str]
    """Outcome value → the name the report uses for it (e.g. "false" → "False" or "REFUTES")."""
    claims: list[LabelledClaim]
    pages: dict[str, WebPage]
    denied_domains: list[str] = field(default_factory=list)
    left_out: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    stance_sides: bool = False
    """Whether the stance model trained on part of this set, so that its claims are tagged with
    the stance model's sides (UNSEEN, MODEL_CALIBRATION) and split by them; a set it never saw
    is split in half by `calibration_side`."""

    def restricted_to(self, claims: list[LabelledClaim]) -> Dataset:
        """The same dataset with only these claims. Every page stays: the other claims' pages
        are the distractors a real web would hold."""
        return Dataset(
            name=self.name,
            label_names=self.label_names,
            claims=claims,
            pages=dict(self.pages),
            denied_domains=self.denied_domains,
            left_out=dict(self.left_out),
            notes=list(self.notes),
            stance_sides=self.stance_sides,
        )

    def split_of(self, claim: LabelledClaim) -> str | None:
        """CALIBRATION or HELD_OUT; None for a claim on the stance model's training side, which
        is in neither."""
        if not self.stance_sides:
            return CALIBRATION if calibration_side(claim.text) else HELD_OUT
        if UNSEEN in claim.tags:
            return HELD_OUT
        return CALIBRATION if MODEL_CALIBRATION in claim.tags else None

    def on_split(self, split: str) -> Dataset:
        """The dataset with only the claims on this side (`ALL`: every claim), and a note in
        the report saying how they were chosen."""
        if split == ALL:
            return self
        if split not in SPLITS:
            raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}")
        chosen = self.restricted_to([c for c in self.claims if self.split_of(c) == split])
        if self.stance_sides:
            how = (
                f"the stance model's {split} side of this set (training/stance/records.py); "
                "claims on its training side are in neither split"
            )
        else:
            digits = "0-7" if split == CALIBRATION else "8-f"
            how = f"the claims whose text's SHA-256 (hex) begins with {digits}, about half"
        chosen.notes.append(f"Split {split}: {how}.")
        return chosen


OUTCOMES = (Outcome.TRUE.value, Outcome.FALSE.value, Outcome.INVALID.value)
