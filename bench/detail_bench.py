"""Single sentences read as the pipeline reads them (the stance model with the rules over it),
against claims they restate, state part of, or contradict in exactly one detail.

Three sources, reported apart:
- the hand-written demo pairs of `bench/data/detail_pairs.json`, its `tuned` part (the pairs the
  rules were looked at against) apart from its `untouched` part;
- real news sentences (Fundus' English pages, the ten articles the stance model's contrastive
  pairs hold out, so no model was trained on them; the rules were looked at against them), made
  into pairs the way those are: a sentence against a shorter copy of itself as the claim (a
  restatement: the sentence states all of it), the sentence's shorter copy against the whole (it
  states part of the claim), and the sentence against the claim with one number, name or negation
  changed (a swap);
- with `--web N`, the same pairs from the English sentences of N real web pages
  (trafilatura-eval's, as the pipeline extracts them), which no rule or model was written or
  trained against: the untouched figure.

Prints, for each kind, how often restatements read as support (and as a support that counts),
partial statements read as anything but a refutation, and swaps as a refutation (and as one
that counts).

    DJANGO_DEBUG=1 .venv/bin/python bench/detail_bench.py [--web 150] [--misses] [--json FILE]
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


def _pairs_of(
    articles: list[tuple[str, list[str]]], names: list[str], source: str, rng: random.Random
) -> list[dict[str, Any]]:
    """Up to three sentences of each article made into a restatement, a partial statement and
    up to three one-detail swaps, the way the stance model's contrastive pairs are made."""
    from training.stance import pairs as data

    out: list[dict[str, Any]] = []
    for _url, sentences in articles:
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
    return [{**pair, "source": source} for pair in out]


def _names(articles: list[tuple[str, list[str]]]) -> list[str]:
    from training.stance import pairs as data

    return sorted({m.group() for _, ss in articles for s in ss for m in data._NAME.finditer(s)})


def news_pairs(articles: int) -> list[dict[str, Any]]:
    """Pairs made from the held-out news articles' sentences (see the module's docstring)."""
    from evaluation.evaldata import eval_data_dir
    from training.stance import pairs as data

    found = data.page_sentences(eval_data_dir())
    held = [(url, s) for url, s in found if data.split_of(url, 0.2) == data.HELD_OUT][:articles]
    return _pairs_of(held, _names(held), "news (held out, tuned on)", random.Random(11))


_ENGLISH = frozenset("the of and to in is was for that on with by from".split())


def _english(sentence: str) -> bool:
    words = sentence.lower().split()
    return 8 <= len(words) <= 45 and sum(w in _ENGLISH for w in words) >= 3


def web_pairs(pages: int) -> list[dict[str, Any]]:
    """Pairs made from the English sentences of real web pages (trafilatura-eval's), as the
    pipeline extracts them: pages no rule and no model was written or trained against."""
    import gzip

    from evaluation.evaldata import eval_data_dir
    from evidence.extraction import extract_document
    from training.stance import pairs as data

    folder = eval_data_dir() / "trafilatura-eval"
    gold = json.loads((folder / "evaldata.json").read_text(encoding="utf-8"))
    articles: list[tuple[str, list[str]]] = []
    for url, item in sorted(gold.items()):
        if len(articles) >= pages:
            break
        path = folder / "eval" / f"{item['file']}.gz"
        if not path.is_file():
            continue
        html = gzip.decompress(path.read_bytes())
        text = extract_document(content=html, content_type="text/html", url=url).text
        sentences = [
            s.strip()
            for line in text.splitlines()
            for s in data._SENTENCE_END.split(line)
            if _english(s)
        ]
        if len(sentences) >= 3:
            articles.append((url, sentences))
    return _pairs_of(articles, _names(articles), "web pages (untouched)", random.Random(11))


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
        "--web", type=int, default=0, help="also this many untouched web pages (trafilatura-eval)"
    )
    parser.add_argument("--json", type=Path, help="write the figures and every pair here")
    parser.add_argument("--misses", action="store_true", help="print each pair read otherwise")
    args = parser.parse_args()
    import django

    django.setup()
    pairs = demo_pairs()
    try:
        pairs += news_pairs(args.articles)
        if args.web:
            pairs += web_pairs(args.web)
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
