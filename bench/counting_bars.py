"""How often the pipeline's counted readings are right at each counting bar, on the calibration
pairs: the bar that `training/stance/recalibrate.py` chooses from the model's own readings, read
again over what the pipeline counts (the model with the lexical rules over it, which veto
refutations of a sentence that states part of the claim, of another event, of reported speech).

The bars of the strong reader's card (`bars` in stance.json) decide which model readings count
(`evidence.stance.combine.model_confidence`). The pipeline is read once with both bars at 1.0,
where only the rules' agreement makes a reading count; a reading the model alone made, and that
the rules left as it was, counts at bar b when the model was at least b sure. For each label and
bar this prints how many readings count on the real-text sets and how often they are right, and
on the distractors (a claim against another claim's evidence, where every count is wrong), and
the lowest bar at which the real-text count is right at least TARGET of the time.

    DJANGO_DEBUG=1 .venv/bin/python bench/counting_bars.py [--limit 300]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

if TYPE_CHECKING:
    from evidence.stance.scorer import Judgement

SETS = ("healthver", "fnc-1", "climate-fever", "liar-plus", "wice", "distractors")
BARS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0)
# As in training/stance/calibrate.py: how often a counted reading must be right, on at least
# how many readings.
TARGET = 0.8
MIN_READINGS = 15


def counts_at(judgement: Judgement, label: str, bar: float) -> bool:
    """Whether a pipeline reading, made with both bars at 1.0, counts toward `label` at `bar`:
    it counted already (the rules agreed with the model), or the model alone made it, the rules
    left it as it was, and the model was at least `bar` sure."""
    if judgement.stance != label:
        return False
    if judgement.confidence != "low":
        return True
    reasons = judgement.reasons
    alone = "model" in reasons and "lean" not in reasons and "rule" not in reasons
    return alone and judgement.score >= bar


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=300, help="calibration pairs per set")
    args = parser.parse_args()
    import django

    django.setup()
    from evaluation.evaldata import eval_data_dir, missing_data
    from evidence.stance import ClaimContext, judge_sentences
    from evidence.stance.model import get_strong
    from training.stance import pairs as data

    root = eval_data_dir()
    if not root.is_dir():
        print(missing_data(root, what="the evaluation data"))
        return 1
    model = get_strong()
    if model is None:
        print("the strong reader does not load")
        return 1
    shipped = dict(model.bars or {})
    model.bars = {data.SUPPORT: 1.0, data.REFUTE: 1.0}
    rows = []
    for name in SETS:
        rows += [r for r in data.load(root, (name,)) if r.split == data.CALIBRATION][: args.limit]
    by_claim: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        by_claim.setdefault(row.claim, []).append(index)
    judged: list = [None] * len(rows)
    for claim, indices in by_claim.items():
        sentences = [rows[i].evidence for i in indices]
        for i, judgement in zip(
            indices, judge_sentences(ClaimContext(text=claim), sentences), strict=True
        ):
            judged[i] = judgement
    real = [i for i, row in enumerate(rows) if row.source in data.REAL_TEXT]
    decoys = [i for i, row in enumerate(rows) if row.source == "distractors"]
    print(f"calibration pairs: {len(real)} of real text, {len(decoys)} distractors")
    print(f"the card's bars: {shipped}")
    for label in (data.SUPPORT, data.REFUTE):
        chosen = None
        print(f"\n{label}: bar, counted on real text (share right), counted on distractors")
        for bar in BARS:
            counted = [i for i in real if counts_at(judged[i], label, bar)]
            right = sum(rows[i].label == label for i in counted) / len(counted) if counted else 0
            wrong = sum(counts_at(judged[i], label, bar) for i in decoys)
            print(f"  {bar:.2f}  {len(counted):4d} ({right:.3f})  {wrong}")
            if chosen is None and len(counted) >= MIN_READINGS and right >= TARGET:
                chosen = bar
        print(f"  lowest bar right at least {TARGET}: {chosen if chosen is not None else 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
