"""Calibrate a stance model again, on the calibration split of other sets than it trained on.

A run calibrates on the calibration side of the sets it loaded (`--sets`); a short run that
continues from a shipped reader on a few sets would so be calibrated on far fewer pairs, and
other ones, than the reader it would replace. This reads that side of the named sets with the
model's shipped copy, as the runtime reads, fits the scale and bias by class and the counting
bars again (`calibrate.py`), and rewrites them in the model's stance.json.

.train/bin/python -m training.stance.recalibrate artifacts/stance-run \
    --calibrate-on healthver,fnc-1,climate-fever,covid-fact,liar-plus,distractors,wice,contrastive
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tokenizers import Tokenizer

from training.stance import calibrate, encoders, ship, warmstart
from training.stance import pairs as data
from training.stance.train import onnx_runner, predict_logits

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path, help="the folder with stance.onnx and stance.json")
    parser.add_argument("--eval-root", type=Path, default=ROOT.parent / "shared" / "eval")
    parser.add_argument("--calibrate-on", required=True, help="comma-separated sets")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    card_path = args.model / "stance.json"
    card = json.loads(card_path.read_text())
    names = tuple(name for name in args.calibrate_on.split(",") if name)
    unknown = [name for name in names if name not in data.SETS]
    if unknown:
        parser.error(f"no such set: {', '.join(unknown)}")
    tuning = [p for p in data.load(args.eval_root, names) if p.split == data.CALIBRATION]
    if not tuning:
        raise SystemExit(f"no calibration pairs of {args.calibrate_on} under {args.eval_root}")
    tokenizer = Tokenizer.from_file(str(args.model / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=card["max_length"], strategy="longest_first")
    tokenizer.no_padding()
    encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in tuning])
    kind = warmstart.kind_of(args.model / "stance.onnx")
    logits = predict_logits(
        onnx_runner(args.model / "stance.onnx", args.threads),
        encoded,
        card["token_types"],
        ship.BATCH[kind],
    )
    real = [i for i, p in enumerate(tuning) if p.source in data.REAL_TEXT]
    fitted, bars, reliable = calibrate.calibrated(logits, [p.label for p in tuning], real)
    print(f"{len(tuning)} calibration pairs\ncalibration by class: {json.dumps(fitted)}")
    print(f"bars on real text: {bars}")
    card["calibration"] = fitted
    card["bars"] = {label: bars[label]["bar"] for label in bars}
    card["calibration_split"] = {
        "pairs": len(tuning),
        "bars": bars,
        "reliability": reliable,
    }
    card.setdefault("read_on", {})["calibration"] = args.calibrate_on
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    print(f"wrote {card_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
