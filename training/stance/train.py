"""Fine-tune the stance model, calibrate it and export it for the runtime.

    python -m training.stance.train [--epochs 1] [--out evidence/stance/model] [--open]

A pretrained sentence encoder (`encoders.py`; all-MiniLM-L6-v2 by default) becomes a
cross-encoder over (claim, evidence passage) with three labels, support / refute / neutral,
trained on the pairs of `training/stance/pairs.py` (read from ../shared/eval) mixed as
`recipe.py` says. It is exported to ONNX and quantized to int8; the int8 copy is calibrated by
class on the calibration split (`calibrate.py`), and the held-out figures are printed for the
trained model, the ONNX export and the int8 copy. It writes the int8 model, its tokenizer and a
JSON card with the calibration, the bars and those figures.

A run saves a checkpoint every few minutes (`--checkpoint`); started again with the same
arguments it goes on from the last one, any number of times. Seeds are fixed. Needs the
`training` dependency group (see DATA_CARD.md), never the runtime's.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
import onnxruntime
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic

from training.stance import (
    arguments,
    calibrate,
    card,
    checkpoint,
    decisive,
    distil,
    encoders,
    recipe,
    ship,
    warmstart,
)
from training.stance import pairs as data
from training.stance.report import against, macro_report, print_report

LABELS = data.LABELS
INDEX = {label: i for i, label in enumerate(LABELS)}


def plan(encoded: encoders.Encoded, size: int, steps: int, seed: int) -> list[list[int]]:
    """Every batch of the run, in order: each epoch in a new random order, batches of similar
    length (less padding on the CPU). Fixed by the seed, so a resumed run takes the same ones."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < steps:
        order = list(range(len(encoded)))
        rng.shuffle(order)
        epoch: list[list[int]] = []
        for i in range(0, len(order), size * 50):
            chunk = sorted(order[i : i + size * 50], key=lambda j: len(encoded[j][0]))
            epoch.extend(chunk[k : k + size] for k in range(0, len(chunk), size))
        rng.shuffle(epoch)
        out.extend(epoch)
    return out[:steps]


def predict_logits(run, encoded: encoders.Encoded, token_types: bool, size: int) -> np.ndarray:
    """Logits in the order of `encoded`; batches of more than one pair hold pairs of similar
    length, so that little of a batch is padding."""
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i][0])) if size > 1 else None
    ordered = [encoded[i] for i in order] if order else encoded
    rows = []
    for start in range(0, len(ordered), size):
        rows.append(run(encoders.arrays(ordered[start : start + size], token_types)))
    logits = np.concatenate(rows) if rows else np.zeros((0, len(LABELS)))
    if order:
        unsorted = np.empty_like(logits)
        unsorted[order] = logits
        return unsorted
    return logits


def torch_runner(model, bf16: bool = False):
    def run(batch: dict[str, np.ndarray]) -> np.ndarray:
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            tensors = {k: torch.from_numpy(v) for k, v in batch.items()}
            return model(**tensors).logits.float().numpy()

    model.eval()
    return run


def onnx_runner(path: Path, threads: int = 1):
    """An ONNX copy's logits for a batch; one thread unless told, as the runtime reads."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}

    def run(batch: dict[str, np.ndarray]) -> np.ndarray:
        return session.run(None, {k: v for k, v in batch.items() if k in names})[0]

    return run


def quantize(full: Path, out: Path) -> None:
    """int8 weights with a scale per output channel: one scale per tensor cost a warm-started
    run 0.15 of FNC-1's macro-F1 and read 37% fewer distractors as neither (DATA_CARD.md)."""
    quantize_dynamic(str(full), str(out), weight_type=QuantType.QInt8, per_channel=True)


def labels_of(logits: np.ndarray) -> list[str]:
    return [LABELS[i] for i in logits.argmax(-1).tolist()]


def export(model, path: Path, token_types: bool) -> None:
    model.eval()
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if token_types else [])
    sample = encoders.arrays([([0, 2023, 2, 2008, 2], [0, 0, 0, 1, 1])] * 2, token_types)
    axes = {0: "batch", 1: "sequence"}
    torch.onnx.export(
        model,
        tuple(torch.from_numpy(sample[k]) for k in names),
        str(path),
        input_names=names,
        output_names=["logits"],
        dynamic_axes={**{k: axes for k in names}, "logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )


def fine_tune(
    args, model, encoded, train, token_types: bool, started: float, soft: dict | None = None
) -> None:
    """Train `model` on `train`: cross-entropy on each labelled pair, and on each unlabelled
    page pair (`distil.py`) the teacher's probabilities in `soft` as targets, softened by the
    temperature and weighed by `--soft-weight`."""
    # An unlabelled pair has no class: -100 is the loss's "ignore this target".
    targets = torch.tensor([INDEX.get(p.label, -100) for p in train])
    weights = recipe.weighed(args.weigh)
    pair_weights = torch.tensor([recipe.weight_of(p, weights) for p in train], dtype=torch.float)
    labelled = [p for p in train if p.label in INDEX]
    counts = Counter(p.label for p in labelled)
    class_weights = torch.tensor(
        [math.sqrt(len(labelled) / (len(LABELS) * max(counts[label], 1))) for label in LABELS]
    )
    loss_of = torch.nn.CrossEntropyLoss(weight=class_weights, reduction="none")
    soft = soft or {}
    if soft:
        soft_targets = torch.tensor(
            [soft.get(distil.pair_key(p.claim, p.evidence), (0.0,) * len(LABELS)) for p in train],
            dtype=torch.float,
        )
        taught = soft_targets.sum(-1) > 0
    soft_weight = float(getattr(args, "soft_weight", 0.0))
    temperature = float(getattr(args, "temperature", 1.0))
    total = max(1, int(math.ceil(len(train) / args.batch_size) * args.epochs))
    batches = plan(encoded, args.batch_size, total, args.seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = max(1, total // 16)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda step: min((step + 1) / warmup, max(0.0, (total - step) / max(1, total - warmup))),
    )
    key = checkpoint.fingerprint(args, train)
    where = args.checkpoint / key
    step = 0
    if (where / "state.pt").is_file():
        state = torch.load(where / "state.pt", weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        schedule.load_state_dict(state["schedule"])
        step = state["step"]
        print(f"resuming from step {step}/{total} ({where})", flush=True)
    else:
        print(f"checkpoints go to {where}", flush=True)
    if step >= total:
        return
    model.train()
    resumed_at, resumed_step = time.perf_counter(), step
    saved_at = time.perf_counter()
    while step < total:
        torch.manual_seed(args.seed + step)  # dropout: the same on a resumed run
        batch = batches[step]
        tensors = {
            k: torch.from_numpy(v)
            for k, v in encoders.arrays([encoded[i] for i in batch], token_types).items()
        }
        # bf16 autocast runs the matrix multiplies on the CPU's AMX units; the weights, the
        # optimiser and the loss stay fp32 (a model cast wholly to bf16 learns slower).
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.bf16):
            logits = model(**tensors).logits.float()
        per_pair = loss_of(logits, targets[batch]) * pair_weights[batch]
        if soft:
            student = torch.log_softmax(logits / temperature, dim=-1)
            teacher_p = soft_targets[batch] ** (1 / temperature)
            teacher_p = teacher_p / teacher_p.sum(-1, keepdim=True).clamp_min(1e-9)
            divergence = (teacher_p * (teacher_p.clamp_min(1e-9).log() - student)).sum(-1)
            per_pair = per_pair + taught[batch] * soft_weight * temperature**2 * divergence
        loss = per_pair.mean()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
        step += 1
        now = time.perf_counter()
        if step % 50 == 0 or step == total:
            rate = (step - resumed_step) / (now - resumed_at)
            left = (total - step) / rate if rate else 0.0
            print(
                f"step {step}/{total} loss {loss.item():.4f} {rate * args.batch_size:.1f} pairs/s"
                f" elapsed {(now - started) / 60:.1f} min, about {left / 60:.0f} min left",
                flush=True,
            )
        if now - saved_at > args.checkpoint_minutes * 60 or step == total:
            state = {
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "schedule": schedule.state_dict(),
                "step": step,
            }
            checkpoint.save(where, state)
            saved_at = now


def start_from(model, path: Path, tokenizer, held: list[data.Pair], token_types: bool) -> None:
    """Load a shipped model's weights and show that the loaded model reads like its ONNX copy
    (they differ only by the copy's int8 activations)."""
    warmstart.load_into(model, path)
    sample = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in held[::40]])
    ours = predict_logits(torch_runner(model), sample, token_types, 1)
    theirs = predict_logits(onnx_runner(path), sample, token_types, 1)
    print(
        f"started from {path}: on {len(sample)} held-out pairs the loaded model and the ONNX copy"
        f" agree on {warmstart.agreement(ours, theirs):.3f} of readings",
        flush=True,
    )


def teacher(path: Path, tokenizer, token_types: bool) -> decisive.Teacher:
    """A stance model's probabilities over (claim, sentence) pairs, one pair per run."""
    run = onnx_runner(path)

    def read(pairs: list[tuple[str, str]]) -> list[list[float]]:
        logits = predict_logits(run, encoders.encode(tokenizer, pairs), token_types, 1)
        shifted = np.exp(logits - logits.max(-1, keepdims=True))
        return (shifted / shifted.sum(-1, keepdims=True)).tolist()

    return read


def read_for_students(args, model, tokenizer, encoder, held, held_encoded, started, mix) -> int:
    """A teacher's run ends here: it reads the page sentences and the training mix's pairs of
    the measured sets (`mix`, not only the part it trained on), writing what it has read after
    every chunk; then it reads the held-out pairs and adds its figures to the file's header."""
    pairs = distil.teacher_pairs(args.eval_root, mix)
    runner = torch_runner(model)

    def read(part):
        encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in part])
        logits = predict_logits(runner, encoded, encoder.token_types, 32)
        shifted = np.exp(logits - logits.max(-1, keepdims=True))
        return (shifted / shifted.sum(-1, keepdims=True)).tolist()

    header = {
        "teacher": encoder.described,
        "epochs": args.epochs,
        "learning_rate": args.lr,
        "seed": args.seed,
        "sets": args.sets.split(","),
        "limit": args.limit,
        "started_from": str(args.init) if args.init else "the bare encoder",
        "read": recipe.describe(pairs),
        "minutes": round((time.perf_counter() - started) / 60, 1),
    }
    probabilities = distil.read_and_write(args.teach, pairs, read, header)
    print(f"\nwrote {len(pairs)} pairs' readings to {args.teach}")
    torch_logits = predict_logits(runner, held_encoded, encoder.token_types, 64)
    trained = macro_report(held, labels_of(torch_logits))
    print_report("held out: trained model (PyTorch)", trained)
    done = {**header, "complete": True, "of": len(pairs), "held_out": trained}
    distil.write_soft(args.teach, pairs, probabilities, done)
    print(f"added the held-out figures to {args.teach}")
    return 0


def main() -> int:
    args = arguments.parse()
    soft: dict[str, tuple[float, ...]] = {}
    soft_header: dict = {}
    if args.soft:
        try:
            soft_header, soft = distil.read_soft_files(args.soft)
        except distil.SoftLabelError as error:
            raise SystemExit(f"--soft: {error}") from error
        print(f"soft labels: {len(soft)} pairs read by {soft_header.get('teacher')}")

    started = time.perf_counter()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    encoder = encoders.ENCODERS[args.base]

    names = tuple(name for name in args.sets.split(",") if name)
    pairs = data.load(args.eval_root, names)
    if not pairs:
        raise SystemExit(f"no training data under {args.eval_root}")
    mix = recipe.training_mix(pairs, args.seed, recipe.capped(args.cap))
    train = mix[args.skip : args.skip + args.limit if args.limit else None]
    held = [p for p in pairs if p.split == data.HELD_OUT]
    tuning = [p for p in pairs if p.split == data.CALIBRATION]

    with tempfile.TemporaryDirectory() as scratch:
        base = encoders.unpack(args.base, Path(scratch) / "base")
        tokenizer = encoders.tokenizer_for(base, args.max_length)
        if args.decisive:
            teach = teacher(args.teacher, tokenizer, encoder.token_types)
            try:
                train += decisive.decisive_pairs(
                    train, teach, args.decisive.split(","), args.specific
                )
            except ValueError as error:
                raise SystemExit(f"--decisive: {error}") from error
        if soft:
            train += distil.taught(distil.page_pairs(args.eval_root), soft)
        print(f"training pairs {len(train)}: {recipe.describe(train)}")
        print(f"calibration pairs {len(tuning)}, held-out pairs {len(held)}", flush=True)
        model = encoders.classifier(base, encoder, LABELS)
        if args.init:
            start_from(model, args.init, tokenizer, held, encoder.token_types)
        encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in train])
        fine_tune(args, model, encoded, train, encoder.token_types, started, soft)

        held_encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in held])
        if args.teach:
            return read_for_students(
                args, model, tokenizer, encoder, held, held_encoded, started, mix
            )
        tuning = [p for p in tuning if ship.chosen(args.calibrate_on, p)]
        tuning_encoded = encoders.encode(tokenizer, [(p.claim, p.evidence) for p in tuning])
        kept = [i for i, p in enumerate(held) if ship.chosen(args.torch_on, p)]
        trained: dict[str, dict[str, float]] = {}
        if kept:
            torch_logits = predict_logits(
                torch_runner(model, args.bf16),
                [held_encoded[i] for i in kept],
                encoder.token_types,
                64,
            )
            trained = macro_report([held[i] for i in kept], labels_of(torch_logits))
            print_report(
                f"held out: trained model (PyTorch{', bf16' if args.bf16 else ''})", trained
            )

        args.out.mkdir(parents=True, exist_ok=True)
        full = Path(scratch) / "stance-fp32.onnx"
        export(model, full, encoder.token_types)
        # The copies are read on the sets named (all by default), each as the runtime would.
        kept = [i for i, p in enumerate(held) if ship.chosen(args.copies_on, p)]
        measured = [held[i] for i in kept]
        measured_encoded = [held_encoded[i] for i in kept]
        fp32_run = onnx_runner(full, args.threads)
        exported = macro_report(
            measured,
            labels_of(predict_logits(fp32_run, measured_encoded, encoder.token_types, 32)),
        )
        print_report("held out: ONNX export (fp32)", exported)
        quantized = Path(scratch) / "stance-int8.onnx"
        quantize(full, quantized)
        int8_run = onnx_runner(quantized, args.threads)
        int8 = macro_report(
            measured, labels_of(predict_logits(int8_run, measured_encoded, encoder.token_types, 1))
        )
        print_report("held out: ONNX int8", int8)
        losses = ship.int8_losses(exported, int8)
        kind = args.ship if args.ship != "auto" else ship.choose(losses)
        print(f"\nint8 loses against fp32 (macro-F1): {losses}\nships: {kind}", flush=True)
        shipped = Path(scratch) / "stance.onnx"
        if kind == "int8":
            shutil.copy(quantized, shipped)
            shipped_run = int8_run
        else:
            ship.store_half(full, shipped)
            shipped_run = onnx_runner(shipped, args.threads)
        started_from: dict[str, dict[str, float]] = {}
        if args.init:
            # The model it would replace, read the same way on the same pairs: the guards.
            init_batch = ship.BATCH[warmstart.kind_of(args.init)]
            started_from = macro_report(
                measured,
                labels_of(
                    predict_logits(
                        onnx_runner(args.init, args.threads),
                        measured_encoded,
                        encoder.token_types,
                        init_batch,
                    )
                ),
            )
            shipped_figures = int8 if kind == "int8" else exported
            print(f"\nheld out: the {kind} copy that ships against {args.init}")
            print("\n".join(against(started_from, shipped_figures, data.GUARDS, data.GUARD_MARGIN)))

        tuning_logits = predict_logits(
            shipped_run, tuning_encoded, encoder.token_types, ship.BATCH[kind]
        )
        real = [i for i, p in enumerate(tuning) if p.source in data.REAL_TEXT]
        fitted, bars, reliable = calibrate.calibrated(
            tuning_logits, [p.label for p in tuning], real
        )
        print(f"\ncalibration by class: {json.dumps(fitted)}\nbars on real text: {bars}")

        shutil.copy(shipped, args.out / "stance.onnx")
        if args.keep_copies:
            shutil.copy(full, args.out / "stance-fp32.onnx")
            shutil.copy(quantized, args.out / "stance-int8.onnx")
        shutil.copy(base / "tokenizer.json", args.out / "tokenizer.json")
        written = card.card_of(
            args,
            encoder=encoder,
            names=names,
            train=train,
            soft=soft,
            soft_header=soft_header,
            fitted=fitted,
            bars=bars,
            reliability=reliable,
            tuning=tuning,
            kind=kind,
            batch=ship.BATCH[kind],
            losses=losses,
            size=shipped.stat().st_size,
            held_out={"torch": trained, "onnx_fp32": exported, "onnx_int8": int8},
            started_from=started_from,
            started=started,
        )
        (args.out / "stance.json").write_text(json.dumps(written, indent=2) + "\n")
    print(f"\nwrote {args.out} in {written['minutes']} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
