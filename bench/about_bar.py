"""How sure the strong reader is that a sentence is about its claim at all (1 - P(neither)),
on the calibration pairs of real claims, for the bar below which a row that takes no side is
listed apart as about another event (`evidence.models.ABOUT_BAR`). Prints, for each set and
gold label, how many pairs fall under each candidate bar.

    DJANGO_DEBUG=1 .venv/bin/python bench/about_bar.py [--limit 200]
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.pipeline_reading import calibration_pairs, start  # noqa: E402

BARS = (0.05, 0.1, 0.15, 0.2)
SETS = ("climate-fever", "wice", "fnc-1", "healthver", "distractors", "liar-plus")


def main() -> int:
    ready = start(__doc__ or "", 200)
    if ready is None:
        return 1
    limit, root, model = ready
    for name in SETS:
        rows = calibration_pairs(root, name, limit)
        under: dict[str, Counter[float]] = defaultdict(Counter)
        total: Counter[str] = Counter()
        for row in rows:
            about = 1 - model.read(row.claim, [row.evidence])[0].probabilities["neutral"]
            total[row.label] += 1
            for bar in BARS:
                under[row.label][bar] += about < bar
        cells = "; ".join(
            f"{label} {total[label]}: " + ", ".join(f"<{b} {under[label][b]}" for b in BARS)
            for label in sorted(total)
        )
        print(f"{name}: {cells}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
