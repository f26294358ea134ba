"""Single sentences read as the pipeline reads them (the stance model with the rules over it),
against claims they restate, state part of, or contradict in exactly one detail.

Two sources, reported apart:
- the hand-written demo pairs of `bench/data/detail_pairs.json`, its `tuned` part (the pairs the
  rules were looked at against) apart from its `untouched` part;
- real news sentences (Fundus' English pages, the articles the stance model's contrastive pairs
  hold out, so no model was trained on them), made into pairs the way those are: a sentence
  against a shorter copy of itself as the claim (a restatement: the sentence states all of it),
  the sentence's shorter copy against the whole (it states part of the claim), and the sentence
  against the claim with one number, name or negation changed (a swap).

Prints, for each kind, how often restatements read as support (and as a support that counts),
partial statements read as anything but a refutation, and swaps as a refutation (and as one
that counts).

    DJANGO_DEBUG=1 .venv/bin/python bench/detail_bench.py [--articles 120] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

DATA = ROOT / "bench/data/detail_pairs.json"
COUNTS = ("medium", "high")


def _when(day: str | None) -> datetime | None:
    return datetime.fromisoformat(day).replace(tzinfo=UTC) if day else None


def demo_pairs() -> list[dict[str, Any]]:
    return [
        {**pair, "source": f"demo ({pair['part']})"}
        for pair in json.loads(DATA.read_text(encoding="utf-8"))["pairs"]
    ]


def news_pairs(articles: int, offset: int = 0) -> list[dict[str, Any]]:
    """Pairs made from the held-out news articles' sentences (see the module's docstring)."""
    from evaluation.evaldata import eval_data_dir
    from training.stance import pairs as data

    rng = random.Random(11)
    found = data.page_sentences(eval_data_dir())
    held = [(url, s) for url, s in found if data.split_of(url, 0.2) == data.HELD_OUT]
    names = sorted({m.group() for _, ss in held for s in ss for m in data._NAME.finditer(s)})
    out: list[dict[str, Any]] = []
    for _url, sentences in held[offset : offset + articles]:
        for sentence in rng.sample(sentences, min(3, len(sentences))):
            short = data._shortened(sentence)
            if short:
                out.append({"kind": "restatement", "claim": short, "sentence": sentence})
                out.append({"kind": "partial", "claim": sentence, "sentence": short})
            for changed in (
                data._changed_number(sentence, rng),
                data._flipped_polarity(sentence),
                data._swapped_name(sentence, names, rng),
            ):
                if changed and changed != sentence:
                    out.append({"kind": "swap", "claim": changed, "sentence": sentence})
    source = f"news (held out, articles {offset} to {offset + articles})"
    return [{**pair, "source": source} for pair in out]


def read(pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from evidence.stance import ClaimContext, judge_sentences

    for pair in pairs:
        claim = ClaimContext(pair["claim"], _when(pair.get("start")), _when(pair.get("end")))
        [judged] = judge_sentences(claim, [pair["sentence"]])
        pair["stance"], pair["confidence"] = str(judged.stance), str(judged.confidence)
        pair["reasons"] = list(judged.reasons)
    return pairs


def figures(pairs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for source in sorted({p["source"] for p in pairs}):
        for kind in ("restatement", "partial", "swap"):
            rows = [p for p in pairs if p["source"] == source and p["kind"] == kind]
            if not rows:
                continue
            stances = Counter(p["stance"] for p in rows)
            counted = Counter(p["stance"] for p in rows if p["confidence"] in COUNTS)
            figure: dict[str, Any] = {"pairs": len(rows), "read": dict(stances)}
            if kind == "restatement":
                figure["support"] = round(stances["support"] / len(rows), 3)
                figure["support_counted"] = round(counted["support"] / len(rows), 3)
            elif kind == "partial":
                figure["never_refute"] = round(1 - stances["refute"] / len(rows), 3)
            else:
                figure["refute"] = round(stances["refute"] / len(rows), 3)
                figure["refute_counted"] = round(counted["refute"] / len(rows), 3)
            out[f"{source} / {kind}"] = figure
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=120, help="held-out news articles")
    parser.add_argument(
        "--offset",
        type=int,
        default=0,
        help="skip this many held-out articles first (the first 120 were looked at while the "
        "rules were written; 120 on were not)",
    )
    parser.add_argument("--json", type=Path, help="write the figures and every pair here")
    parser.add_argument("--misses", action="store_true", help="print each pair read otherwise")
    args = parser.parse_args()
    import django

    django.setup()
    pairs = demo_pairs()
    try:
        pairs += news_pairs(args.articles, args.offset)
    except FileNotFoundError as exc:
        print(f"no news sentences ({exc}): the demo pairs alone")
    read(pairs)
    results = figures(pairs)
    for name, figure in results.items():
        print(f"{name}: {figure}")
    if args.misses:
        wrong = {"restatement": "support", "swap": "refute"}
        for p in pairs:
            kind = p["kind"]
            missed = p["stance"] == "refute" if kind == "partial" else p["stance"] != wrong[kind]
            if missed and p["source"].startswith("demo"):
                print(f"miss {p['kind']}: {p['claim']!r} / {p['sentence']!r} -> {p['stance']}")
    if args.json:
        args.json.write_text(json.dumps({"figures": results, "pairs": pairs}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
