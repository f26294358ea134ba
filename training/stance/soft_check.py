"""How well a teacher's file reads: its readings of the labelled pairs it never trained on.

A teacher trained on the first `limit` pairs of the recipe's shuffled mix (its header says which
sets, seed and limit) reads every labelled training pair of `distil.TAUGHT_SETS` in the mix. The
ones past `limit` it never saw, so its likeliest label on them, against their labels, says how
well it reads each set, even when its run stopped before its held-out pass. With `--model`, an
exported model (the shipped one, say) reads the same pairs one at a time, as the runtime reads,
for comparison. These pairs are training pairs of a student, not held-out pairs: the figures say
which teacher to learn from, and are no figure of a shipped model.

    .train/bin/python -m training.stance.soft_check training/stance/teacher/mpnet-pairs.jsonl.gz \
        --model evidence/stance/model
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from training.stance import arguments, distil, encoders, recipe
from training.stance import pairs as data
from training.stance.records import LABELS, Pair
from training.stance.report import macro_report, print_report


def unseen_pairs(header: dict, pairs: list[Pair], soft: dict) -> list[Pair]:
    """The labelled pairs a teacher read and did not train on, in the mix's order."""
    mix = recipe.training_mix(pairs, int(header["seed"]))
    limit = header.get("limit") or len(mix)
    return [
        p for p in mix[limit:] if p.label in LABELS and distil.pair_key(p.claim, p.evidence) in soft
    ]


def likeliest(soft: dict, rows: list[Pair]) -> list[str]:
    return [LABELS[int(np.argmax(soft[distil.pair_key(p.claim, p.evidence)]))] for p in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("soft", type=Path, help="a teacher's soft-label file (--teach)")
    parser.add_argument("--model", type=Path, help="an exported model's folder to compare")
    parser.add_argument("--eval-root", type=Path, default=arguments.ROOT.parent / "shared" / "eval")
    args = parser.parse_args(argv)
    try:
        header, soft = distil.read_soft(args.soft)
    except distil.SoftLabelError as error:
        raise SystemExit(str(error)) from error
    if "seed" not in header or "sets" not in header:
        raise SystemExit(f"{args.soft}: its header does not say how the teacher's mix was drawn")
    pairs = data.load(args.eval_root, tuple(header["sets"]))
    rows = unseen_pairs(header, pairs, soft)
    print(
        f"{len(rows)} labelled pairs read by the teacher and not trained on: "
        f"{recipe.describe(rows)}",
        flush=True,
    )
    print_report("the teacher's readings", macro_report(rows, likeliest(soft, rows)))
    if args.model:
        from training.stance.train import labels_of, onnx_runner, predict_logits

        card = json.loads((args.model / "stance.json").read_text(encoding="utf-8"))
        tokenizer = encoders.tokenizer_for(args.model, int(card["max_length"]))
        encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in rows])
        logits = predict_logits(onnx_runner(args.model / "stance.onnx"), encoded, True, 1)
        print_report(f"{args.model} on the same pairs", macro_report(rows, labels_of(logits)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
