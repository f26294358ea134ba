"""The plain data every dataset reader produces: labelled claims and the pages of their web."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from claims.models import Outcome


class DatasetError(ValueError):
    """The dataset file cannot be read as the format it was given as."""


# The tag of claims whose data the stance model never trained on (training/stance/pairs.py).
UNSEEN = "model-held-out"


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
        )


OUTCOMES = (Outcome.TRUE.value, Outcome.FALSE.value, Outcome.INVALID.value)
