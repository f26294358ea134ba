"""How often the pipeline's counted readings are right at each counting bar, on the calibration
pairs: the bar that `training/stance/recalibrate.py` chooses from the model's own readings, read
again over what the pipeline counts (the model with the lexical rules over it, which veto
refutations of a sentence that states part of the claim, of another event, of reported speech).

The bars of the strong reader's card (`bars` in stance.json) decide which model readings count
(`evidence.stance.combine.model_confidence`). The pipeline is read once with both bars at 1.0,
where only the rules' agreement, or the fast reader's (`combine.SECOND_AGREE`), makes a reading
count; a reading the model alone made, and that the rules left as it was, counts at bar b when
the model was at least b sure. For each label and bar this prints how many readings count on
the real-text sets and how often they are right, and on the distractors (a claim against another
claim's evidence, where every count is wrong), and the lowest bar at which the real-text count
is right at least TARGET of the time.

    DJANGO_DEBUG=1 .venv/bin/python bench/counting_bars.py [--limit 300]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.pipeline_reading import (  # noqa: E402
    calibration_pairs,
    read_as_pipeline,
    start,
)

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


def made_by(judgement: Judgement) -> str:
    """What made a counted reading: the rules that found the same ("polarity", "number_mismatch"
    ...) and the second reader where it agreed, a rule alone ("rule"), or the model alone."""
    from evidence.stance.combine import VETOES

    rules = [reason for reason in judgement.reasons if reason in VETOES]
    if "second" in judgement.reasons:
        rules.append("second reader")
    if rules:
        return "+".join(rules)
    return "rule" if "rule" in judgement.reasons else "model alone"


def _makers(rows: list, judged: list, counted: list[int]) -> list[str]:
    """One line per maker of the counted readings: how many, how many right, and by set."""
    groups: dict[str, list[int]] = {}
    for i in counted:
        groups.setdefault(made_by(judged[i]), []).append(i)
    lines = []
    for maker, indices in sorted(groups.items(), key=lambda item: -len(item[1])):
        right = sum(rows[i].label == judged[i].stance for i in indices)
        sets = Counter(rows[i].source for i in indices)
        where = ", ".join(f"{name} {n}" for name, n in sets.most_common())
        lines.append(f"  {maker}: {len(indices)} counted, {right} right ({where})")
    return lines


def main() -> int:
    ready = start(__doc__ or "", 300)
    if ready is None:
        return 1
    limit, root, model = ready
    from training.stance import pairs as data

    shipped = dict(model.bars or {})
    model.bars = {data.SUPPORT: 1.0, data.REFUTE: 1.0}
    rows = [row for name in SETS for row in calibration_pairs(root, name, limit)]
    judged = read_as_pipeline(rows)
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
        bar = shipped.get(label, 1.0)
        print(f"  what made those counted at the card's bar ({bar}):")
        print(
            "\n".join(_makers(rows, judged, [i for i in real if counts_at(judged[i], label, bar)]))
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
