"""What the benchmarks that read labelled pairs share: Django set up with the evaluation data and
the strong reader loaded, a set's calibration pairs, and the pairs read as the pipeline reads a
page's sentences (each claim's sentences together)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

if TYPE_CHECKING:
    from evidence.stance.model import StanceModel
    from evidence.stance.scorer import Judgement
    from training.stance.pairs import Pair


def start(doc: str, default_limit: int) -> tuple[int, Path, StanceModel] | None:
    """A calibration benchmark's start: its `--limit` (pairs per set), Django set up, the
    evaluation data's folder and the strong reader; None, after one line that says which is
    missing."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument(
        "--limit", type=int, default=default_limit, help="calibration pairs per set"
    )
    limit = parser.parse_args().limit
    import django

    django.setup()
    from evaluation.evaldata import eval_data_dir, missing_data
    from evidence.stance.model import get_strong

    root = eval_data_dir()
    if not root.is_dir():
        print(missing_data(root, what="the evaluation data"))
        return None
    model = get_strong()
    if model is None:
        print("the strong reader does not load")
        return None
    return limit, root, model


def calibration_pairs(root: Path, name: str, limit: int) -> list[Pair]:
    """The first `limit` pairs of a set's calibration split."""
    from training.stance import pairs as data

    return [row for row in data.load(root, (name,)) if row.split == data.CALIBRATION][:limit]


def read_as_pipeline(rows: list[Pair]) -> list[Judgement]:
    """Each pair's judgement, its claim's sentences read together as a page's are."""
    from evidence.stance import ClaimContext, judge_sentences

    by_claim: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        by_claim.setdefault(row.claim, []).append(index)
    judged: dict[int, Judgement] = {}
    for claim, indices in by_claim.items():
        sentences = [rows[i].evidence for i in indices]
        judged.update(
            zip(indices, judge_sentences(ClaimContext(text=claim), sentences), strict=True)
        )
    return [judged[i] for i in range(len(rows))]
