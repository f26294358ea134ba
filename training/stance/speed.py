"""How fast each base encoder would read as it ships: int8, one pair a run, one thread.

    python -m training.stance.speed [--bases mpnet4,mpnet] [--pairs 300] [--shipped DIR]

Each encoder gets an untrained head (reading time does not depend on the weights), is exported
to ONNX and quantized to int8 as a training run does it, and reads the same held-out pairs
(Climate-FEVER, HealthVer, FNC-1 and LIAR-PLUS, shuffled by the seed) one pair per run on one
thread, after a warm-up. The shipped model reads the same pairs first. The figures say which
bases can meet the pipeline's 60 pairs a second (DATA_CARD.md, "The base encoder").
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import tempfile
import time
from pathlib import Path

from training.stance import encoders
from training.stance import pairs as data
from training.stance.train import LABELS, export, onnx_runner, quantize

ROOT = Path(__file__).resolve().parents[2]
SETS = ("climate-fever", "healthver", "fnc-1", "liar-plus")
WARM_UP = 20


def pairs_per_second(model: Path, folder: Path, pairs: list[data.Pair], token_types: bool) -> float:
    tokenizer = encoders.tokenizer_for(folder, 128)
    encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in pairs])
    run = onnx_runner(model)  # one thread, as the runtime reads
    feeds = [encoders.arrays([one], token_types) for one in encoded]
    for feed in feeds[:WARM_UP]:
        run(feed)
    started = time.perf_counter()
    for feed in feeds:
        run(feed)
    return len(feeds) / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--eval-root", type=Path, default=ROOT.parent / "shared" / "eval")
    parser.add_argument("--bases", default="mpnet4,mpnet")
    parser.add_argument("--layers", default="", help="also these cuts of MPNet, e.g. 5,6")
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--shipped", type=Path, default=ROOT / "evidence" / "stance" / "model")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    held = [p for p in data.load(args.eval_root, SETS) if p.split == data.HELD_OUT]
    random.Random(args.seed).shuffle(held)
    pairs = held[: args.pairs]
    print(f"{len(pairs)} held-out pairs, one a run, one thread, int8")
    rate = pairs_per_second(args.shipped / "stance.onnx", args.shipped, pairs, True)
    print(f"{'shipped':<10} {rate:6.1f} pairs/s")
    chosen = [encoders.ENCODERS[name] for name in args.bases.split(",") if name]
    chosen += [
        dataclasses.replace(encoders.ENCODERS["mpnet4"], name=f"mpnet{n}", layers=int(n))
        for n in args.layers.split(",")
        if n
    ]
    unpacked: dict[str, Path] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for encoder in chosen:
            if encoder.unpacks not in unpacked:  # the cuts of one encoder share its weights
                into = Path(scratch) / encoder.unpacks
                unpacked[encoder.unpacks] = encoders.unpack(encoder.unpacks, into)
            folder = unpacked[encoder.unpacks]
            model = encoders.classifier(folder, encoder, LABELS)
            full, int8 = Path(scratch) / "fp32.onnx", Path(scratch) / "int8.onnx"
            export(model, full, encoder.token_types)
            quantize(full, int8)
            rate = pairs_per_second(int8, folder, pairs, encoder.token_types)
            size = int8.stat().st_size / 2**20
            print(f"{encoder.name:<10} {rate:6.1f} pairs/s  {size:4.0f} MB int8", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
