"""Languages and entities benchmark: what they cost a worker.

Usage (from the repo root):
    .venv/bin/python bench/entities_bench.py [--rounds N]

Prints the language detector's and the gazetteer's load time and the memory each adds to the
process, then language detections and entity extractions per second on the demo corpus's page
texts, sentence by sentence (the size of a snippet or a quote) and whole pages, on one core.
The alias table is read from a fresh SQLite database migrated in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="passes over the corpus")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from claimcheck.language import detect_language
    from demo.loader import demo_manifest
    from evidence.entities import extract_entities
    from evidence.entities.gazetteer import _Gazetteer
    from evidence.extraction import extract_document

    texts = []
    for entry in demo_manifest():
        if entry.dead or entry.content_type != "text/html":
            continue
        document = extract_document(
            content=entry.path.read_bytes(), url=entry.url, content_type="text/html"
        )
        if document.text:
            texts.append(document.text)
    sentences = [s.strip() for text in texts for s in text.split(". ") if len(s.strip()) > 20]

    before = _rss_mb()
    started = time.perf_counter()
    detect_language("warming up the detector")
    detector_s = time.perf_counter() - started
    after_detector = _rss_mb()
    started = time.perf_counter()
    _Gazetteer.places()
    gazetteer_s = time.perf_counter() - started
    after_gazetteer = _rss_mb()
    print(f"language detector: loaded in {detector_s:.2f} s, +{after_detector - before:.0f} MB")
    print(
        f"gazetteer: {len(_Gazetteer.places()):,} names loaded in {gazetteer_s:.2f} s, "
        f"+{after_gazetteer - after_detector:.0f} MB (process {after_gazetteer:.0f} MB)"
    )

    for label, items in (("sentences", sentences), ("pages", texts)):
        for name, work in (
            ("language", detect_language),
            ("entities", lambda text: extract_entities(text, language="en")),
        ):
            started = time.perf_counter()
            for _ in range(args.rounds):
                for item in items:
                    work(item)
            elapsed = time.perf_counter() - started
            count = len(items) * args.rounds
            print(f"{name:9s} {label:9s} {count / elapsed:9.0f} per second ({count} done)")


if __name__ == "__main__":
    main()
