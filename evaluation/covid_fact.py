"""The COVID-Fact reader (Saakyan et al. 2021): claims from r/COVID19 post titles, each with
the evidence sentences found on its source page, and counter-claims made from them by swapping
words ("vaccine reduces" → "vaccine increases"), labelled REFUTED.

The offline web: one page per source URL, holding the evidence sentences quoted from it in
first-seen order, its title made from the URL as AVeriTeC's pages are, no date. A real claim
and its counter-claims share their page: what tells them apart is what the page says. The
report splits the figures into real claims and counter-claims: the counter-claims are made by
a machine, and a reader that catches a swapped word may still miss a real false claim.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claims.models import Outcome
from evaluation.averitec import title_from_url
from evaluation.dataset import (
    MODEL_CALIBRATION,
    UNSEEN,
    Dataset,
    DatasetError,
    LabelledClaim,
    WebPage,
    WebSection,
    json_lines,
)
from integrations.http.canonical import canonicalize_url
from training.stance.pairs import covid_fact_held_out
from training.stance.records import CALIBRATION, not_held

LABELS = {"SUPPORTED": Outcome.TRUE.value, "REFUTED": Outcome.FALSE.value}
LABEL_NAMES = {
    Outcome.TRUE.value: "SUPPORTED",
    Outcome.FALSE.value: "REFUTED",
    Outcome.INVALID.value: "NOT_ENOUGH_INFO",
}
REAL, COUNTER = "real", "counter-claim"


def stance_side(item: dict[str, Any]) -> tuple[str, ...]:
    """The tag of the claim's side in the stance model's split, as training/stance/pairs.py
    draws it: by the claim's source (or its evidence when it has none), so that a claim and its
    counter-claims share a side."""
    if covid_fact_held_out(item):
        return (UNSEEN,)
    key = item.get("gold_source") or " ".join(item.get("evidence") or []).strip()
    return (MODEL_CALIBRATION,) if not_held(key) == CALIBRATION else ()


def read_covid_fact(path: Path) -> Dataset:
    """Read COVIDFACT_dataset.jsonl (one claim per line)."""
    pages: dict[str, WebPage] = {}
    claims: list[LabelledClaim] = []
    left_out: dict[str, int] = {}
    for number, item in json_lines(path):
        text = " ".join(str(item.get("claim") or "").split())
        label = str(item.get("label") or "")
        if not text:
            raise DatasetError(f"{path.name} line {number} has no claim")
        if label not in LABELS:
            raise DatasetError(f"{path.name} line {number}: label {label!r} is unknown")
        source = str(item.get("gold_source") or "").strip()
        try:
            canonical = canonicalize_url(source) if source.startswith("http") else None
        except ValueError:
            canonical = None
        sentences = [" ".join(str(s).split()) for s in item.get("evidence") or []]
        sentences = [s for s in sentences if s]
        urls: tuple[str, ...] = ()
        if canonical is None or not sentences:
            left_out["claims with no source page or no evidence sentence"] = (
                left_out.get("claims with no source page or no evidence sentence", 0) + 1
            )
        else:
            page = pages.get(canonical)
            if page is None:
                page = pages[canonical] = WebPage(
                    url=source, title=title_from_url(source), sections=[WebSection("", [])]
                )
            for sentence in sentences:
                if sentence not in page.sections[0].paragraphs:
                    page.sections[0].paragraphs.append(sentence)
            urls = (canonical,)
        claims.append(
            LabelledClaim(
                key=str(number),
                text=text,
                gold=LABELS[label],
                gold_label=label,
                page_urls=urls,
                tags=(REAL if label == "SUPPORTED" else COUNTER, *stance_side(item)),
            )
        )
    return Dataset(
        name="covid-fact",
        label_names=LABEL_NAMES,
        claims=claims,
        pages=pages,
        left_out=left_out,
        stance_sides=True,
        notes=[
            "Label mapping: SUPPORTED → True, REFUTED → False; no claim is labelled Invalid.",
            "SUPPORTED claims are real post titles; REFUTED claims are counter-claims made by "
            "swapping words in them (the dataset's own method), reported apart.",
            "One page per source URL with the evidence sentences quoted from it; a claim and "
            "its counter-claims share it. One page is one publisher: a claim can reach the "
            "agreement score only where another claim's page on another site bears on it.",
        ],
    )
