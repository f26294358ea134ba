"""A short pilot of the base encoders on the same pairs: accuracy against pairs per second.

    python -m training.stance.pilot [--train 2000] [--held 1000] [--bases minilm,mpnet]

Each encoder is fine-tuned on the same training pairs drawn from the recipe's mix, for the same
number of steps, and read on the same held-out pairs (drawn across every set). Speed is PyTorch on
one thread, one pair per run, as the runtime reads; the shipped runtime is the int8 ONNX copy,
which runs about 2.3 times faster than fp32 for either (DATA_CARD.md). The figures choose the
base encoder of the shipped model (DATA_CARD.md says which won and why).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from training.stance import encoders, recipe
from training.stance import pairs as data
from training.stance.report import macro
from training.stance.train import LABELS, fine_tune, labels_of, predict_logits, torch_runner

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--eval-root", type=Path, default=ROOT.parent / "shared" / "eval")
    parser.add_argument("--bases", default="minilm,mpnet")
    parser.add_argument("--train", type=int, default=2000)
    parser.add_argument("--held", type=int, default=1000)
    parser.add_argument("--speed-pairs", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    pairs = data.load(args.eval_root)
    rng = random.Random(args.seed)
    train = recipe.training_mix(pairs, args.seed)[: args.train]
    held_all = [p for p in pairs if p.split == data.HELD_OUT]
    held = rng.sample(held_all, min(args.held, len(held_all)))
    gold = [p.label for p in held]
    results = {}
    for name in args.bases.split(","):
        encoder = encoders.ENCODERS[name]
        torch.manual_seed(args.seed)
        np.random.seed(args.seed)
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as scratch:
            base = encoders.unpack(name, Path(scratch) / "base")
            tokenizer = encoders.tokenizer_for(base, 128)
            model = encoders.classifier(base, encoder, LABELS)
            settings = argparse.Namespace(
                base=name, epochs=1.0, batch_size=16, lr=5e-5, max_length=128, seed=args.seed,
                sets="pilot", limit=args.train, checkpoint=Path(scratch) / "checkpoints",
                checkpoint_minutes=1e9, weigh="", init=None,
            )  # fmt: skip
            encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in train])
            fine_tune(settings, model, encoded, train, encoder.token_types, started)
            trained_minutes = (time.perf_counter() - started) / 60
            held_encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in held])
            run = torch_runner(model)
            predicted = labels_of(predict_logits(run, held_encoded, encoder.token_types, 32))
            timed = held_encoded[: args.speed_pairs]
            began = time.perf_counter()
            predict_logits(run, timed, encoder.token_types, 1)
            rate = len(timed) / (time.perf_counter() - began)
            parameters = sum(p.numel() for p in model.parameters())
        results[name] = {
            "parameters_m": round(parameters / 1e6, 1),
            "held_out": macro(gold, predicted),
            "pairs_per_second_fp32_one_thread": round(rate, 1),
            "training_minutes": round(trained_minutes, 1),
        }
        print(json.dumps({name: results[name]}), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
