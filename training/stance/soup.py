"""Average two stance readers of one base, weight by weight, into a third.

A reader continued on a narrow mix (the one-detail swaps) learns what it was shown and forgets
some of what it knew; the average of its weights and those of the reader it started from keeps
much of both (Wortsman et al., "Robust fine-tuning of zero-shot models", CVPR 2022, call this
weight-space ensembling). Both readers must be shipped copies of the same base (int8 or fp32
stored as fp16, `warmstart.shipped_weights`); the average is exported fp32 and stored as fp16,
as a strong reader ships, with the second reader's card and tokenizer. Its calibration is then
that of the second reader, so calibrate it again before reading it:

.train/bin/python -m training.stance.soup evidence/stance/strong-2/stance.onnx \
    artifacts/stance-swaps-3/stance.onnx --share 0.5 --out artifacts/stance-soup
.train/bin/python -m training.stance.recalibrate artifacts/stance-soup --calibrate-on ...
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

from training.stance import encoders, ship, warmstart
from training.stance import pairs as data


def averaged(
    first: dict[str, np.ndarray], second: dict[str, np.ndarray], share: float
) -> dict[str, np.ndarray]:
    """(1 - share) of `first` and `share` of `second`, weight by weight: both must hold the same
    weights in the same shapes."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"the second reader's share must be between 0 and 1, not {share}")
    if first.keys() != second.keys():
        differ = sorted(first.keys() ^ second.keys())
        raise ValueError(f"the readers hold different weights: {differ[:5]}")
    out = {}
    for name, weight in first.items():
        if weight.shape != second[name].shape:
            raise ValueError(f"{name}: {weight.shape} against {second[name].shape}")
        out[name] = ((1.0 - share) * weight + share * second[name]).astype(np.float32)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path, help="a shipped stance.onnx")
    parser.add_argument("second", type=Path, help="a stance.onnx of the same base")
    parser.add_argument("--share", type=float, default=0.5, help="the second reader's share")
    parser.add_argument("--base", choices=sorted(encoders.ENCODERS), default="mpnet")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    import torch

    weights = averaged(
        warmstart.shipped_weights(args.first),
        warmstart.shipped_weights(args.second),
        args.share,
    )
    encoder = encoders.ENCODERS[args.base]
    card = json.loads((args.second.parent / "stance.json").read_text())
    with tempfile.TemporaryDirectory() as scratch:
        base = encoders.unpack(args.base, Path(scratch) / "base")
        model = encoders.classifier(base, encoder, data.LABELS)
        tensors = {name: torch.from_numpy(value) for name, value in weights.items()}
        missing = model.load_state_dict(tensors, strict=False).missing_keys
        learnt = [name for name in missing if not name.endswith(("position_ids", "token_type_ids"))]
        if learnt:
            raise SystemExit(f"the readers lack {learnt}")
        from training.stance.train import export

        full = Path(scratch) / "stance-fp32.onnx"
        export(model, full, encoder.token_types)
        args.out.mkdir(parents=True, exist_ok=True)
        ship.store_half(full, args.out / "stance.onnx")
    shutil.copy(args.second.parent / "tokenizer.json", args.out / "tokenizer.json")
    card["copy"] = {"kind": "fp32", "batch": ship.BATCH["fp32"]}
    card["batch"] = ship.BATCH["fp32"]
    card["souped"] = {"first": str(args.first), "second": str(args.second), "share": args.share}
    (args.out / "stance.json").write_text(json.dumps(card, indent=2) + "\n")
    print(
        f"wrote {args.out}: {1 - args.share:g} of {args.first} and {args.share:g} of {args.second}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
