"""Similar claims on a set written for it (bench/data/similar_claims.json): restatements of
stored claims (reworded, and in Russian, Swedish and German) and near misses that differ in one
number, date, place, party, direction or negation. The set was written after the matcher's
thresholds and word lists were set and is not used to tune them.

Stores the set's claims in a scratch database (as the claims service does: indexed, no worker
run), then asks `similar_claims` for each text and prints how often a restatement found its
claim first as "same" (by language), how often a near miss was called "same" (by what
differs), and each miss.

    DJANGO_DEBUG=1 .venv/bin/python bench/similar_eval.py [--set holdout]

`--set holdout` reads bench/data/similar_claims_holdout.json instead: a second set, written after
the matcher's last change and run once.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")

import django  # noqa: E402

django.setup()

from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from decisions.services import claim_submit  # noqa: E402
from decisions.similar import similar_claims  # noqa: E402

SETS = {
    "dev": ROOT / "bench" / "data" / "similar_claims.json",
    "holdout": ROOT / "bench" / "data" / "similar_claims_holdout.json",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=sorted(SETS), default="dev")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    data = json.loads(SETS[args.set].read_text(encoding="utf-8"))
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    try:
        ids = [claim_submit(text=text, enqueue=False)[0].pk for text in data["stored"]]
        found: Counter[str] = Counter()
        asked: Counter[str] = Counter()
        misses = []
        for item in data["restatements"]:
            language = item["language"]
            asked[language] += 1
            top = similar_claims(text=item["text"])[:1]
            if top and top[0].id == ids[item["of"]] and top[0].relation == "same":
                found[language] += 1
            else:
                got = f"{top[0].relation} #{ids.index(top[0].id)} {top[0].score}" if top else "none"
                misses.append(f"  restatement ({language}) got {got}: {item['text']}")
        wrong: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        for item in data["near_misses"]:
            kinds[item["differs"]] += 1
            same = [s for s in similar_claims(text=item["text"]) if s.relation == "same"]
            if same:
                wrong[item["differs"]] += 1
                misses.append(f"  near miss ({item['differs']}) called same: {item['text']}")
        restated = sum(asked.values())
        print(
            f"restatements found first as same: {sum(found.values())} of {restated} "
            f"({sum(found.values()) / restated:.2f})"
        )
        for language in sorted(asked):
            print(f"  {language}: {found[language]} of {asked[language]}")
        near = sum(kinds.values())
        print(
            f"near misses called same: {sum(wrong.values())} of {near} "
            f"({sum(wrong.values()) / near:.2f})"
        )
        for kind in sorted(kinds):
            print(f"  {kind}: {wrong[kind]} of {kinds[kind]}")
        print("misses:" if misses else "no misses")
        print("\n".join(misses))
    finally:
        teardown_databases(old, verbosity=0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
