"""Extraction benchmark: publication dates, main text, throughput and memory.

Usage (from the repo root):
    .venv/bin/python bench/extraction_bench.py [--limit N] [--only dates|text]

Reads third-party pages from ../shared/eval, or the folder CLAIMCHECK_EVAL_DATA names (never
copied into the repo):
- htmldate-eval (800 pages, gold publication day) and fundus-news (258 news pages, gold
  publishing timestamp): day-level accuracy of extract_document().published_at, against plain
  htmldate.find_date(extensive_search=True) (and, for reference, with original_date=True) run
  on the same pages in the same run, each given the page URL as ours is.
- trafilatura-eval (990 pages, text segments that must / must not appear): precision, recall
  and F1 of extract_document().text, against plain trafilatura.extract().
Throughput is pages per second of CPU time for the whole extract_document() call (one core,
fetch excluded); memory is the peak resident set of this process.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import htmldate  # noqa: E402
import trafilatura  # noqa: E402

from evaluation.evaldata import eval_data_dir, missing_data  # noqa: E402
from evidence.extraction import extract_document  # noqa: E402

EVAL = eval_data_dir()


def _read_gz(folder: Path, name: str) -> bytes | None:
    for sub in ("eval", "cache", "test_data"):
        path = folder / sub / f"{name}.gz"
        if path.is_file():
            return gzip.decompress(path.read_bytes())
        plain = folder / sub / name
        if plain.is_file() and name.endswith(".gz"):
            return gzip.decompress(plain.read_bytes())
    return None


def _htmldate_pages(limit: int | None) -> Iterator[tuple[str, bytes, date]]:
    folder = EVAL / "htmldate-eval"
    gold = json.loads((folder / "eval_default.json").read_text())
    for count, (url, item) in enumerate(gold.items()):
        if limit is not None and count >= limit:
            return
        html = _read_gz(folder, item["file"])
        if html is not None and item.get("date"):
            yield url, html, date.fromisoformat(item["date"][:10])


def _fundus_pages(limit: int | None) -> Iterator[tuple[str, bytes, date]]:
    folder = EVAL / "fundus-news"
    with (folder / "fundus_gold_index.jsonl").open() as lines:
        for count, line in enumerate(lines):
            if limit is not None and count >= limit:
                return
            item = json.loads(line)
            if not item.get("publishing_date"):
                continue
            html = _read_gz(folder, item["html_file"])
            if html is not None:
                gold = datetime.fromisoformat(item["publishing_date"]).date()
                yield item["url"], html, gold


def bench_dates(name: str, pages: Iterator[tuple[str, bytes, date]]) -> float:
    ours_ok = base_ok = orig_ok = total = 0
    ours_cpu = base_cpu = 0.0
    by_source: Counter[str] = Counter()
    by_source_ok: Counter[str] = Counter()
    for url, html, gold in pages:
        total += 1
        started = time.process_time()
        doc = extract_document(content=html, content_type="text/html", url=url)
        ours_cpu += time.process_time() - started
        found = doc.published_at.date() if doc.published_at else None
        source = (doc.date_source or "none").split(":")[0]
        by_source[source] += 1
        if found == gold:
            ours_ok += 1
            by_source_ok[source] += 1
        started = time.process_time()
        guessed = htmldate.find_date(html, extensive_search=True, url=url)
        base_cpu += time.process_time() - started
        if guessed and guessed[:10] == gold.isoformat():
            base_ok += 1
        original = htmldate.find_date(html, extensive_search=True, original_date=True, url=url)
        if original and original[:10] == gold.isoformat():
            orig_ok += 1
    if not total:
        print(f"{name}: no pages")
        return 0.0
    print(f"\n== {name}: publication day accuracy on {total} pages")
    print(f"  ours (extract_document)            {ours_ok / total:.4f}  ({ours_ok}/{total})")
    print(f"  htmldate.find_date(extensive=True) {base_ok / total:.4f}  ({base_ok}/{total})")
    print(f"  ... with original_date=True        {orig_ok / total:.4f}  ({orig_ok}/{total})")
    print(
        "  ours by date source: "
        + ", ".join(f"{src} {by_source_ok[src]}/{n}" for src, n in by_source.most_common())
    )
    print(
        f"  throughput, whole extract_document: {total / ours_cpu:.1f} pages/s per core "
        f"(htmldate alone: {total / base_cpu:.1f})"
    )
    return total / ours_cpu


def _text_score(text: str, with_: list[str], without: list[str]) -> tuple[int, int, int, int]:
    tp = sum(1 for segment in with_ if segment in text)
    fn = len(with_) - tp
    fp = sum(1 for segment in without if segment in text)
    tn = len(without) - fp
    return tp, fn, fp, tn


def bench_text(limit: int | None) -> None:
    folder = EVAL / "trafilatura-eval"
    gold = json.loads((folder / "evaldata.json").read_text())
    ours = [0, 0, 0, 0]
    base = [0, 0, 0, 0]
    pages = 0
    for count, (url, item) in enumerate(gold.items()):
        if limit is not None and count >= limit:
            break
        html = _read_gz(folder, item["file"])
        if html is None:
            continue
        pages += 1
        doc = extract_document(content=html, content_type="text/html", url=url)
        plain = trafilatura.extract(html, url=url) or ""
        for totals, text in ((ours, doc.text), (base, plain)):
            scores = _text_score(text, item.get("with", []), item.get("without", []))
            for i, value in enumerate(scores):
                totals[i] += value
    print(f"\n== trafilatura-eval: main text on {pages} pages")
    for label, (tp, fn, fp, tn) in (
        ("ours (extract_document)", ours),
        ("trafilatura.extract()", base),
    ):
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        accuracy = (tp + tn) / (tp + fn + fp + tn)
        print(
            f"  {label:26s} precision {precision:.4f}  recall {recall:.4f}  F1 {f1:.4f}  "
            f"accuracy {accuracy:.4f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="pages per data set")
    parser.add_argument("--only", choices=["dates", "text"], default=None)
    args = parser.parse_args()
    if not EVAL.is_dir():
        # Nothing to measure: one line, and a failing exit, so that no one reads on for figures.
        print(missing_data(EVAL, what="evaluation data"), file=sys.stderr)
        return 2
    wall = time.perf_counter()
    if args.only in (None, "dates"):
        if (EVAL / "htmldate-eval").is_dir():
            bench_dates("htmldate-eval", _htmldate_pages(args.limit))
        else:
            print("skipped: " + missing_data(EVAL / "htmldate-eval", what="htmldate-eval"))
        if (EVAL / "fundus-news").is_dir():
            bench_dates("fundus-news", _fundus_pages(args.limit))
        else:
            print("skipped: " + missing_data(EVAL / "fundus-news", what="fundus-news"))
    if args.only in (None, "text"):
        if (EVAL / "trafilatura-eval").is_dir():
            bench_text(args.limit)
        else:
            print("skipped: " + missing_data(EVAL / "trafilatura-eval", what="trafilatura-eval"))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    wall = time.perf_counter() - wall
    print(f"\npeak memory (max RSS of the whole run): {peak_mb:.0f} MB; wall {wall:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
