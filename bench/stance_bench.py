"""Stance benchmark: the lexical scorer and the stance model on pairs neither was tuned on.

Usage (from the repo root):
    .venv/bin/python bench/stance_bench.py [--json OUT] [--limit N] [--sets a,b] [--sweep]

The held-out splits of `training/stance/pairs.py` (read from ../shared/eval, or the folder
CLAIMCHECK_EVAL_DATA names): Climate-FEVER's odd claims (five labelled Wikipedia sentences
each), COVID-Fact's held-out sources (real claims and their word-swapped counter-claims reported
apart), and the held-out parts of HealthVer, SICK, WiCE, LIAR-PLUS, the contrastive page pairs
and the distractors (a claim against another claim's evidence on its topic, which should read as
neither), each set apart. For the model it also prints pairs per second on one core, load time
and the memory it adds, and how often its readings are right at each probability, which is
where its confidence levels are set. --sweep prints the
lexical scorer's two relevance thresholds over a grid, on Climate-FEVER's even (tuning) claims.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from evaluation.evaldata import eval_data_dir, missing_data  # noqa: E402
from training.stance import pairs as data  # noqa: E402

EVAL = eval_data_dir()

CLASSES = data.LABELS


def _metrics(gold: list[str], predicted: list[str]) -> dict[str, float]:
    figures: dict[str, float] = {}
    f1s = []
    for cls in CLASSES:
        tp = sum(1 for g, p in zip(gold, predicted, strict=True) if g == p == cls)
        fp = sum(1 for g, p in zip(gold, predicted, strict=True) if p == cls and g != cls)
        fn = sum(1 for g, p in zip(gold, predicted, strict=True) if g == cls and p != cls)
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        figures[f"f1_{cls}"] = round(f1, 4)
        if cls in gold:
            f1s.append(f1)
    figures["macro_f1"] = round(sum(f1s) / max(len(f1s), 1), 4)
    figures["accuracy"] = round(
        sum(1 for g, p in zip(gold, predicted, strict=True) if g == p) / max(len(gold), 1), 4
    )
    figures["n"] = len(gold)
    return figures


def _by_set(rows: list[data.Pair], predicted: list[str]) -> dict[str, dict[str, float]]:
    out = {}
    for source in sorted({row.source for row in rows}):
        picked = [i for i, row in enumerate(rows) if row.source == source]
        out[source] = _metrics([rows[i].label for i in picked], [predicted[i] for i in picked])
    for kind, label in (("real", data.SUPPORT), ("counter", data.REFUTE)):
        picked = [i for i, row in enumerate(rows) if row.kind == kind]
        if picked:
            right = sum(1 for i in picked if predicted[i] == label)
            out[f"covid-fact {kind} read as {label}"] = {
                "share": round(right / len(picked), 4),
                "n": len(picked),
            }
    return out


def _lexical(rows: list[data.Pair], embed_cosines: bool) -> tuple[list[str], float]:
    from evidence.rerank import embed
    from evidence.stance import scorer

    started = time.perf_counter()
    cosines: list[float | None] = [None] * len(rows)
    if embed_cosines:
        claims = sorted({row.claim for row in rows})
        claim_vectors = embed(claims)
        sentence_vectors = embed([row.evidence for row in rows])
        if claim_vectors is not None and sentence_vectors is not None:
            where = {claim: i for i, claim in enumerate(claims)}
            cosines = [
                float(sentence_vectors[i] @ claim_vectors[where[row.claim]])
                for i, row in enumerate(rows)
            ]
    signals = {
        claim: scorer.ClaimSignals.of(claim, None, None) for claim in {r.claim for r in rows}
    }
    predicted = [
        str(scorer.judge(signals[row.claim], row.evidence, cosine=cosines[i]).stance)
        for i, row in enumerate(rows)
    ]
    return predicted, len(rows) / (time.perf_counter() - started)


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _model(rows: list[data.Pair]) -> tuple[list, list, dict[str, float]] | None:
    """The model's own readings, and the pipeline's (the model with the lexical rules over it)."""
    from django.conf import settings

    from bench.pipeline_reading import read_as_pipeline
    from evidence.stance import model as stance_model
    from evidence.stance.model import StanceModel

    folder = Path(settings.STANCE_MODEL_DIR)
    if not (folder / "stance.onnx").is_file():
        print(f"no stance model in {folder}")
        return None
    before = _rss_mb()
    started = time.perf_counter()
    model = StanceModel(folder, threads=1)
    load_seconds = time.perf_counter() - started
    by_claim: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        by_claim.setdefault(row.claim, []).append(i)
    readings: list = [None] * len(rows)
    started = time.perf_counter()
    for claim, indices in by_claim.items():
        sentences = [rows[i].evidence for i in indices]
        for i, reading in zip(indices, model.read(claim, sentences), strict=True):
            readings[i] = reading
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    added = _rss_mb() - before
    stance_model.get()  # the pipeline's copy, loaded once
    judged = read_as_pipeline(rows)
    return (
        readings,
        judged,
        {
            "pairs_per_second_one_core": round(len(rows) / seconds, 1),
            "load_seconds": round(load_seconds, 3),
            "rss_added_mb": round(added, 1),
            "peak_rss_mb": round(peak, 1),
        },
    )


# Sets of sentences written by people about real claims (not captions, not machine-made edits):
# the model's confidence levels are set from how often it is right on these.
REAL_TEXT = data.REAL_TEXT
_GROUPS = {
    "real text": lambda row: row.source in REAL_TEXT,
    "all but COVID-Fact swaps": lambda row: row.source != "covid-fact",
}


def _calibration(rows: list[data.Pair], readings: list) -> dict[str, dict[str, list]]:
    """For each class the model reads: of its readings at least this sure, how many and the
    share that are right, on the real-text sets and on every held-out set but COVID-Fact's."""
    table: dict[str, dict[str, list]] = {}
    for group, keep in _GROUPS.items():
        picked = [i for i, row in enumerate(rows) if keep(row)]
        table[group] = {}
        for stance in (data.SUPPORT, data.REFUTE):
            lines = []
            for floor in (0.5, 0.7, 0.8, 0.9, 0.95):
                decided = [
                    i
                    for i in picked
                    if readings[i].stance == stance and readings[i].probability >= floor
                ]
                right = sum(1 for i in decided if rows[i].label == stance)
                lines.append(
                    {
                        "probability_at_least": floor,
                        "decided": len(decided),
                        "precision": round(right / len(decided), 4) if decided else 0.0,
                    }
                )
            table[group][stance] = lines
    return table


def _by_confidence(rows: list[data.Pair], judged: list) -> dict[str, dict[str, dict]]:
    """The pipeline reader's decided readings by confidence level, and those that count toward
    a verdict (medium and high, the default floor) by class: how many, and the share right."""
    out: dict[str, dict[str, dict]] = {}
    for group, keep in _GROUPS.items():
        picked = [i for i, row in enumerate(rows) if keep(row) and judged[i].stance != data.NEUTRAL]
        buckets: dict[str, list[int]] = {
            "high": [i for i in picked if judged[i].confidence == "high"],
            "medium": [i for i in picked if judged[i].confidence == "medium"],
            "low": [i for i in picked if judged[i].confidence == "low"],
        }
        for stance in (data.SUPPORT, data.REFUTE):
            buckets[f"counted {stance}"] = [
                i for i in picked if judged[i].stance == stance and judged[i].confidence != "low"
            ]
        out[group] = {
            name: {
                "decided": len(indices),
                "precision": (
                    round(sum(1 for i in indices if rows[i].label == judged[i].stance)
                          / len(indices), 4) if indices else 0.0
                ),
            }
            for name, indices in buckets.items()
        }  # fmt: skip
    return out


def _support_f1(gold: list[bool], predicted: list[bool]) -> dict[str, float]:
    tp = sum(1 for g, p in zip(gold, predicted, strict=True) if g and p)
    fp = sum(1 for g, p in zip(gold, predicted, strict=True) if p and not g)
    fn = sum(1 for g, p in zip(gold, predicted, strict=True) if g and not p)
    return {
        "support_f1": round(2 * tp / (2 * tp + fp + fn), 4) if tp else 0.0,
        "precision": round(tp / (tp + fp), 4) if tp + fp else 0.0,
        "recall": round(tp / (tp + fn), 4) if tp + fn else 0.0,
        "read_as_support": tp + fp,
        "backing": tp + fn,
    }


def _wice_sentences(limit: int | None) -> dict[str, dict[str, float]] | None:
    """Finding what backs a claim on a long real page: each held-out WiCE claim against every
    sentence of its cited page, one at a time; a sentence backs the claim when annotators chose
    it (for all or part of the claim). Support F1 of the model, the pipeline reader, and the
    reader's readings that count toward a verdict."""
    from evidence.stance import ClaimContext, judge_sentences
    from evidence.stance import model as stance_model

    model = stance_model.get()
    try:
        items = data._wice_items(EVAL)
    except FileNotFoundError:
        return None
    gold: list[bool] = []
    read: list[bool] = []
    reader: list[bool] = []
    counted: list[bool] = []
    for item in items[: limit or None]:
        if data.wice_split(item) != data.HELD_OUT:
            continue
        sentences, chosen = data.wice_page(item)
        if not sentences:
            continue
        gold += [i in chosen for i in range(len(sentences))]
        if model is not None:
            read += [r.stance == data.SUPPORT for r in model.read(item["claim"], sentences)]
        judged = judge_sentences(ClaimContext(text=item["claim"]), sentences)
        reader += [j.stance == data.SUPPORT for j in judged]
        counted += [j.stance == data.SUPPORT and j.confidence != "low" for j in judged]
    out = {"pipeline reader": _support_f1(gold, reader), "counted": _support_f1(gold, counted)}
    if read:
        out["model alone"] = _support_f1(gold, read)
    out["sentences"] = {"n": len(gold)}
    return out


def _wice_picks(ks: list[int]) -> dict[str, dict[str, float]] | None:
    """The strong reader where it decides, on WiCE's held-out pages: for each k, how many of the
    sentences annotators chose are among the k picked on their page (`pick.py`: the pick's
    recall), and the support F1 when the strong model reads the picked sentences and the rest
    read as neither. Also the fast model alone on every sentence, for comparison."""
    from evidence.stance import model as stance_model

    fast, strong = stance_model.get(), stance_model.get_strong()
    if fast is None or strong is None:
        print("the fast and the strong stance models are both needed for --picks")
        return None
    try:
        items = data._wice_items(EVAL)
    except FileNotFoundError:
        return None
    pages = []
    for item in items:
        if data.wice_split(item) != data.HELD_OUT:
            continue
        sentences, chosen = data.wice_page(item)
        if sentences:
            pages.append((item["claim"], sentences, chosen, fast.read(item["claim"], sentences)))
    out: dict[str, dict[str, float]] = {}
    strong_read: dict[tuple[int, int], str] = {}

    def by_fast_reader(claim: str, sentences: list[str], readings: list, k: int) -> list[int]:
        """The pick before pick.py: the fast reader's least likely neither alone."""
        ranked = sorted(range(len(readings)), key=lambda i: readings[i].probabilities["neutral"])
        return sorted(ranked[:k])

    rows = [(f"k={k}", k, stance_model.pick) for k in ks]
    rows += [(f"k={k}, the fast reader's pick alone", k, by_fast_reader) for k in ks]
    for name, k, pick in rows:
        gold: list[bool] = []
        predicted: list[bool] = []
        kept = fresh_reads = 0
        started = time.perf_counter()
        for number, (claim, sentences, chosen, readings) in enumerate(pages):
            picked = pick(claim, sentences, readings, k)
            fresh = [i for i in picked if (number, i) not in strong_read]
            fresh_reads += len(fresh)
            for i, reading in zip(fresh, strong.read(claim, [sentences[i] for i in fresh]),
                                  strict=True):  # fmt: skip
                strong_read[(number, i)] = reading.stance
            kept += sum(1 for i in chosen if i in picked)
            gold += [i in chosen for i in range(len(sentences))]
            predicted += [
                i in picked and strong_read[(number, i)] == data.SUPPORT
                for i in range(len(sentences))
            ]
        backing = sum(gold)
        elapsed = time.perf_counter() - started
        out[name] = {
            "pick_recall": round(kept / backing, 4) if backing else 0.0,
            **_support_f1(gold, predicted),
            "strong_reads_per_page": round(sum(min(k, len(p[1])) for p in pages) / len(pages), 1),
            "new_reads_per_second": round(fresh_reads / elapsed, 1) if fresh_reads else 0.0,
        }
    out["fast model alone, every sentence"] = _support_f1(
        [i in chosen for _, sentences, chosen, _ in pages for i in range(len(sentences))],
        [r.stance == data.SUPPORT for *_, readings in pages for r in readings],
    )
    return out


def _print_sets(name: str, figures: dict[str, dict[str, float]]) -> None:
    print(f"\n {name}")
    for source, values in figures.items():
        shown = "  ".join(f"{key} {value}" for key, value in values.items())
        print(f"  {source:34s} {shown}")


def _sweep(limit: int | None) -> None:
    from evidence.stance import scorer

    rows = [row for row in data.climate_fever(EVAL) if row.split == data.TRAIN][: limit or None]
    signals = {
        claim: scorer.ClaimSignals.of(claim, None, None) for claim in {r.claim for r in rows}
    }
    print("\n sweep on Climate-FEVER's tuning claims: RELEVANT SUPPORTING -> accuracy macro-F1")
    for relevant in (0.3, 0.34, 0.38, 0.42, 0.46, 0.5):
        for supporting in (0.45, 0.5, 0.55, 0.6, 0.65):
            if supporting < relevant:
                continue
            scorer.RELEVANT, scorer.SUPPORTING = relevant, supporting
            predicted = [
                str(scorer.judge(signals[r.claim], r.evidence, cosine=None).stance) for r in rows
            ]
            figures = _metrics([r.label for r in rows], predicted)
            print(
                f"  {relevant:.2f} {supporting:.2f} -> {figures['accuracy']} {figures['macro_f1']}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--limit", type=int, default=None, help="pairs per set")
    parser.add_argument("--sets", default=",".join(data.SETS), help="comma-separated sets")
    parser.add_argument("--no-embed", action="store_true", help="lexical: token coverage only")
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument(
        "--picks",
        default="",
        help="also read WiCE's held-out pages with the strong model on the k sentences the fast"
        " one picks, for each k given (e.g. 4,6,8,12)",
    )
    args = parser.parse_args()
    if not EVAL.is_dir():
        # Nothing to measure: one line, and a failing exit, so that no one reads on for figures.
        print(missing_data(EVAL, what="evaluation data"), file=sys.stderr)
        return 2

    import django

    django.setup()
    names = tuple(name for name in args.sets.split(",") if name)
    rows = []
    for name in names:
        held = [row for row in data.load(EVAL, (name,)) if row.split == data.HELD_OUT]
        rows.extend(held[: args.limit] if args.limit else held)
    print(f"held-out pairs: {len(rows)} {dict(Counter(row.source for row in rows))}")

    lexical, lexical_rate = _lexical(rows, not args.no_embed)
    report: dict = {"pairs": len(rows), "lexical": _by_set(rows, lexical)}
    report["lexical"]["pairs_per_second"] = {"value": round(lexical_rate, 1)}
    _print_sets("lexical scorer", report["lexical"])
    _print_sets("baseline: all neutral", _by_set(rows, [data.NEUTRAL] * len(rows)))

    modelled = _model(rows)
    if modelled is not None:
        readings, judged, cost = modelled
        report["model"] = _by_set(rows, [reading.stance for reading in readings])
        report["reader"] = _by_set(rows, [str(judgement.stance) for judgement in judged])
        report["model_cost"] = cost
        report["model_calibration"] = _calibration(rows, readings)
        report["reader_by_confidence"] = _by_confidence(rows, judged)
        _print_sets("stance model alone", report["model"])
        _print_sets("pipeline reader: the model with the lexical rules over it", report["reader"])
        print("\n stance model cost: " + "  ".join(f"{k} {v}" for k, v in cost.items()))
        print("\n stance model calibration by class (readings at least this sure: right / all)")
        for group, classes in report["model_calibration"].items():
            for stance, lines in classes.items():
                shown = "  ".join(
                    f">={line['probability_at_least']:.2f} {line['precision']:.2f}"
                    f" of {line['decided']}"
                    for line in lines
                )
                print(f"  {group:25s} {stance:8s} {shown}")
        wice = _wice_sentences(None)
        if wice is not None:
            report["wice_sentences"] = wice
            _print_sets("WiCE held-out pages, every sentence: does it back the claim?", wice)
        print("\n pipeline reader by confidence (decided readings: how many, share right)")
        for group, levels in report["reader_by_confidence"].items():
            shown = "  ".join(
                f"{level} {values['decided']} {values['precision']:.3f}"
                for level, values in levels.items()
            )
            print(f"  {group:25s} {shown}")
    if args.picks:
        picks = _wice_picks([int(k) for k in args.picks.split(",") if k])
        if picks is not None:
            report["wice_picks"] = picks
            _print_sets("WiCE held-out pages: the strong model reads the k sentences picked", picks)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    if args.sweep:
        _sweep(args.limit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
