"""The CLIMATE-FEVER reader (Diggelmann et al. 2020): climate claims, each with five sentences
from Wikipedia that annotators judged against it.

The offline web: one page per Wikipedia article named in the data, at the article's own URL
(https://en.wikipedia.org/wiki/<Title>), holding every sentence the data quotes from it, in the
article's order. Wikipedia gets no special tier: it is whatever the domain registry says (with
the shipped registry, "other"), as on any run. DISPUTED claims have no single right answer and
are left out (and counted).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from claims.models import Outcome
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
from training.stance.pairs import climate_fever_held_out
from training.stance.records import CALIBRATION, not_held

LABELS = {
    "SUPPORTS": Outcome.TRUE.value,
    "REFUTES": Outcome.FALSE.value,
    "NOT_ENOUGH_INFO": Outcome.INVALID.value,
}
LABEL_NAMES = {
    Outcome.TRUE.value: "SUPPORTS",
    Outcome.FALSE.value: "REFUTES",
    Outcome.INVALID.value: "NOT_ENOUGH_INFO",
}
LEFT_OUT_LABEL = "DISPUTED"


def article_url(title: str) -> str:
    return "https://en.wikipedia.org/wiki/" + quote(title.strip().replace(" ", "_"), safe="_(),'")


def _position(evidence_id: str) -> int:
    """Evidence ids are "<article>:<sentence number>"; the number orders the page."""
    tail = evidence_id.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def stance_side(index: int, claim: str) -> tuple[str, ...]:
    """The tag of the claim's side in the stance model's split, as training/stance/pairs.py
    draws it: held out by position, else calibration or training by the claim's raw text."""
    if climate_fever_held_out(index):
        return (UNSEEN,)
    return (MODEL_CALIBRATION,) if not_held(claim) == CALIBRATION else ()


def read_climate_fever(path: Path) -> Dataset:
    """Read climate-fever.jsonl (one claim per line)."""
    sentences: dict[str, dict[int, str]] = {}
    claims: list[LabelledClaim] = []
    left_out: dict[str, int] = {}
    for index, (number, item) in enumerate(json_lines(path)):
        text = " ".join(str(item.get("claim") or "").split())
        label = str(item.get("claim_label") or "")
        if not text:
            raise DatasetError(f"{path.name} line {number} has no claim")
        urls: list[str] = []
        for evidence in item.get("evidences") or []:
            article = str(evidence.get("article") or "").strip()
            sentence = " ".join(str(evidence.get("evidence") or "").split())
            if not article or not sentence:
                continue
            by_position = sentences.setdefault(article, {})
            position = _position(str(evidence.get("evidence_id") or ""))
            while position in by_position and by_position[position] != sentence:
                position += 1  # two sentences under one number: keep both, in data order
            by_position[position] = sentence
            canonical = canonicalize_url(article_url(article))
            if canonical not in urls:
                urls.append(canonical)
        if label == LEFT_OUT_LABEL:
            left_out["DISPUTED claims (no single right answer)"] = (
                left_out.get("DISPUTED claims (no single right answer)", 0) + 1
            )
            continue
        if label not in LABELS:
            raise DatasetError(f"{path.name} line {number}: label {label!r} is unknown")
        claims.append(
            LabelledClaim(
                key=str(item.get("claim_id", number)),
                text=text,
                gold=LABELS[label],
                gold_label=label,
                page_urls=tuple(urls),
                tags=stance_side(index, str(item.get("claim") or "")),
            )
        )
    pages: dict[str, WebPage] = {}
    for article, by_position in sentences.items():
        url = article_url(article)
        ordered = [by_position[key] for key in sorted(by_position)]
        pages[canonicalize_url(url)] = WebPage(
            url=url, title=article, sections=[WebSection(article, ordered)]
        )
    return Dataset(
        name="climate-fever",
        label_names=LABEL_NAMES,
        claims=claims,
        pages=pages,
        left_out=left_out,
        stance_sides=True,
        notes=[
            "Label mapping: SUPPORTS → True, REFUTES → False, NOT_ENOUGH_INFO → Invalid; "
            "DISPUTED left out.",
            "One page per Wikipedia article, tiered by the domain registry (shipped: other).",
            "Every page is on en.wikipedia.org: one registrable domain, so one independent "
            "source per claim at most.",
        ],
    )
