"""Stance benchmark: the deterministic scorer on CLIMATE-FEVER evidence sentences.

Usage (from the repo root):
    .venv/bin/python bench/stance_bench.py [--limit N] [--no-embed] [--sweep]

Each of the 1,535 claims comes with five Wikipedia sentences labelled SUPPORTS / REFUTES /
NOT_ENOUGH_INFO (support / refute / neutral here). Figures are reported on the claims with an
even index (where thresholds were set) and on the odd ones (held out), next to the
all-neutral baseline. --sweep prints accuracy and macro-F1 over a grid of the two relevance
thresholds on the even half only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT.parent / "shared" / "eval"
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

LABELS = {"SUPPORTS": "support", "REFUTES": "refute", "NOT_ENOUGH_INFO": "neutral"}
CLASSES = ("support", "refute", "neutral")


def _load(limit: int | None) -> list[tuple[int, str, str, str]]:
    rows = []
    with (EVAL / "climate-fever" / "climate-fever.jsonl").open() as lines:
        for index, line in enumerate(lines):
            if limit is not None and index >= limit:
                break
            item = json.loads(line)
            for evidence in item["evidences"]:
                label = LABELS.get(evidence["evidence_label"])
                if label:
                    rows.append((index, item["claim"], evidence["evidence"], label))
    return rows


def _metrics(gold: list[str], predicted: list[str]) -> tuple[float, float, dict[str, tuple]]:
    per_class = {}
    f1s = []
    for cls in CLASSES:
        tp = sum(1 for g, p in zip(gold, predicted, strict=True) if g == p == cls)
        fp = sum(1 for g, p in zip(gold, predicted, strict=True) if p == cls and g != cls)
        fn = sum(1 for g, p in zip(gold, predicted, strict=True) if g == cls and p != cls)
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class[cls] = (precision, recall, f1)
        f1s.append(f1)
    accuracy = sum(1 for g, p in zip(gold, predicted, strict=True) if g == p) / max(len(gold), 1)
    return accuracy, sum(f1s) / len(f1s), per_class


def _report(name: str, gold: list[str], predicted: list[str]) -> None:
    accuracy, macro, per_class = _metrics(gold, predicted)
    print(f"  {name:34s} accuracy {accuracy:.4f}  macro-F1 {macro:.4f}  (n={len(gold)})")
    for cls, (p, r, f) in per_class.items():
        print(f"      {cls:8s} precision {p:.3f} recall {r:.3f} F1 {f:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="number of claims")
    parser.add_argument("--no-embed", action="store_true", help="token coverage only")
    parser.add_argument("--sweep", action="store_true")
    args = parser.parse_args()
    if not (EVAL / "climate-fever").is_dir():
        print("skipped: ../shared/eval/climate-fever not found")
        return 0

    import django

    django.setup()
    from evidence.rerank import embed
    from evidence.stance import scorer

    rows = _load(args.limit)
    started = time.perf_counter()
    cosines: list[float | None] = [None] * len(rows)
    if not args.no_embed:
        claims = sorted({claim for _, claim, _, _ in rows})
        claim_vectors = embed(claims)
        sentence_vectors = embed([sentence for _, _, sentence, _ in rows])
        if claim_vectors is not None and sentence_vectors is not None:
            where = {claim: i for i, claim in enumerate(claims)}
            cosines = [
                float(sentence_vectors[i] @ claim_vectors[where[claim]])
                for i, (_, claim, _, _) in enumerate(rows)
            ]
    signals = {claim: scorer.ClaimSignals.of(claim, None, None) for _, claim, _, _ in rows}
    judgements = [
        scorer.judge(signals[claim], sentence, cosine=cosines[i])
        for i, (_, claim, sentence, _) in enumerate(rows)
    ]
    elapsed = time.perf_counter() - started
    embedder = "none (token coverage)" if args.no_embed else "wordllama"
    print(f"climate-fever: {len(rows)} evidence sentences, embedder {embedder}")
    print(f"  gold labels: {dict(Counter(label for *_, label in rows))}")
    for half, parity in (("tuning half (even claims)", 0), ("held-out half (odd claims)", 1)):
        picked = [i for i, row in enumerate(rows) if row[0] % 2 == parity]
        gold = [rows[i][3] for i in picked]
        print(f"\n {half}")
        _report("deterministic scorer", gold, [judgements[i].stance for i in picked])
        _report("baseline: all neutral", gold, ["neutral"] * len(gold))
    all_gold = [row[3] for row in rows]
    print("\n all claims")
    _report("deterministic scorer", all_gold, [j.stance for j in judgements])
    print(f"\n  {len(rows) / elapsed:.0f} sentences/s including embedding")

    if args.sweep:
        even = [i for i, row in enumerate(rows) if row[0] % 2 == 0]
        print("\n sweep on the tuning half: RELEVANT SUPPORTING -> accuracy macro-F1")
        for relevant in (0.3, 0.34, 0.38, 0.42, 0.46, 0.5):
            for supporting in (0.45, 0.5, 0.55, 0.6, 0.65):
                if supporting < relevant:
                    continue
                scorer.RELEVANT, scorer.SUPPORTING = relevant, supporting
                predicted = [
                    scorer.judge(signals[rows[i][1]], rows[i][2], cosine=cosines[i]).stance
                    for i in even
                ]
                accuracy, macro, _ = _metrics([rows[i][3] for i in even], predicted)
                print(f"  {relevant:.2f} {supporting:.2f} -> {accuracy:.4f} {macro:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
