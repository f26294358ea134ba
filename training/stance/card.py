"""The JSON card a training run writes beside the model it ships (`stance.json`): what the
runtime reads (labels, length, calibration, bars, batch) and how the model was made and read."""

from __future__ import annotations

import argparse
import time
from typing import Any

from training.stance import distil, encoders, recipe
from training.stance.records import LABELS, Pair

INDEX = {label: i for i, label in enumerate(LABELS)}


def card_of(
    args: argparse.Namespace,
    *,
    encoder: encoders.Encoder,
    names: tuple[str, ...],
    train: list[Pair],
    soft: dict,
    soft_header: dict,
    fitted: dict,
    bars: dict,
    reliability: dict,
    tuning: list[Pair],
    kind: str,
    batch: int,
    losses: dict,
    size: int,
    held_out: dict,
    started_from: dict,
    started: float,
) -> dict[str, Any]:
    return {
        "labels": list(LABELS),
        "max_length": args.max_length,
        "base": encoder.described,
        "token_types": encoder.token_types,
        "seed": args.seed,
        "started_from": str(args.init) if args.init else "the bare encoder",
        "epochs": args.epochs,
        "learning_rate": args.lr,
        "batch_size": args.batch_size,
        "sets": list(names),
        "decisive": {
            "sets": [name for name in args.decisive.split(",") if name],
            "teacher": str(args.teacher) if args.decisive else "",
            "specific": bool(args.decisive and args.specific),
        },
        "training_pairs": recipe.describe(train),
        "distilled_from": {
            "files": [str(path) for path in args.soft],
            "teacher": soft_header.get("teacher", ""),
            "pairs": len(soft),
            "labelled_pairs_taught": sum(
                p.label in INDEX and distil.pair_key(p.claim, p.evidence) in soft for p in train
            ),
            "soft_weight": args.soft_weight,
            "temperature": args.temperature,
        }
        if args.soft
        else {},
        "weights": {f"{s}:{k}" if k else s: w for (s, k), w in recipe.weighed(args.weigh).items()},
        "caps": {f"{s}:{k}" if k else s: n for (s, k), n in recipe.capped(args.cap).items()},
        "calibration": fitted,
        "bars": {label: bars[label]["bar"] for label in bars},
        "calibration_split": {
            "pairs": len(tuning),
            "bars": bars,
            "reliability": reliability,
        },
        "copy": {
            "kind": kind,
            "batch": batch,
            "int8_loss": losses,
            "bytes": size,
        },
        "batch": batch,
        "held_out": held_out,
        "read_on": {
            "torch": args.torch_on,
            "copies": args.copies_on,
            "calibration": args.calibrate_on,
            "bf16": args.bf16,
        },
        "held_out_started_from": started_from,
        "minutes": round((time.perf_counter() - started) / 60, 1),
    }
